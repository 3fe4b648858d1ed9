package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.Durability;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The shortener's web page used as a person would, in headless Chromium driven by ChromeDriver
 * (Debian's {@code chromium} and {@code chromium-driver}; Selenium is told where both are, so it never
 * looks for or downloads a driver). One browser for the class; each test gets a new embedded shortener
 * on an empty data directory (its own port, so its own origin: no local storage, no cached file, no
 * link of another test).
 *
 * <p>After every test the browser's console must hold no error but the network lines of the API
 * refusals the test provoked on purpose (a 400, 401 or 409 the page then shows): a script exception,
 * a Content-Security-Policy violation or a missing file fails the test. A screenshot of each test's
 * last state is kept in {@code target/web-page-screenshots/}.
 */
class WebPageIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "web-page-screenshots");
    /** Chrome's console line for a fetch the server refused; the page shows those refusals itself. */
    private static final Pattern EXPECTED_REFUSAL =
        Pattern.compile(".*Failed to load resource: the server responded with a status of (400|401|409) .*");
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    static Path browserDir;
    private static ChromeDriver browser;
    private static WebDriverWait wait;
    private RunningApp shortener;
    private String key;
    private String base;

    @BeforeAll
    static void startBrowser() throws IOException {
        for (Path program : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(program)) {
                fail(program + " is needed: install the Debian packages chromium and chromium-driver"
                    + " (./hotpath test does so under CI)");
            }
        }
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
            .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1100",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + Files.createDirectories(browserDir.resolve("profile")));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        wait = new WebDriverWait(browser, PATIENCE);
        // The page replaces its rows when it renders a page of links: a row a condition found just
        // before is then stale, and the condition must look again rather than fail the test.
        wait.ignoring(StaleElementReferenceException.class);
        // Clipboard writes need a focused page; headless Chromium has none by default.
        browser.executeCdpCommand("Emulation.setFocusEmulationEnabled", Map.of("enabled", true));
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** A new shortener, and the page opened on it for the first time. */
    @BeforeEach
    void newShortenerAndItsPage(@TempDir Path dir) throws IOException {
        shortener = RunningApp.start(new ShortenerConfig(dir, "http://127.0.0.1:1", "scrambled", Durability.NORMAL,
            100_000, 256, 302, Set.of(), null, true, Clock.systemUTC()));
        key = Files.readString(shortener.createdKeyFile()).strip();
        base = "http://127.0.0.1:" + shortener.server().port();
        browser.executeCdpCommand("Browser.grantPermissions", Map.of("origin", base,
            "permissions", List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
        browser.get(base + "/");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("key")));
    }

    @AfterEach
    void screenshotAndNoConsoleErrors(TestInfo test) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(test.getTestMethod().orElseThrow().getName() + ".png"),
            browser.getScreenshotAs(OutputType.BYTES));
        List<String> errors = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue() && !EXPECTED_REFUSAL.matcher(entry.getMessage()).matches()) {
                errors.add(entry.getMessage());
            }
        }
        assertThat(errors).as("console errors").isEmpty();
    }

    @AfterEach
    void stopShortener() {
        shortener.close();
    }

    @Test
    void theFirstViewWeighsUnderFiftyKilobytes() {
        long transferred = ((Number) browser.executeScript("""
            const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
            return entries.reduce((sum, e) => sum + e.transferSize, 0);""")).longValue();
        long files = ((Number) browser.executeScript("return performance.getEntriesByType('resource').length")).longValue();
        assertThat(files).as("script, style and icon fetched by this first view").isGreaterThanOrEqualTo(2);
        assertThat(transferred).as("bytes transferred").isGreaterThan(10 * 1024).isLessThan(50 * 1024);
    }

    @Test
    void aRefusedKeyIsSaidSoAndCanBeForgottenForTheRightOne() {
        pasteKey("not-the-key");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "refused this API key"));
        browser.findElement(By.id("forget-key")).click();
        assertThat(browser.findElement(By.id("key-form")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("app")).isDisplayed()).isFalse();
        assertThat(browser.executeScript("return localStorage.length")).isEqualTo(0L);

        pasteKey(key);
        wait.until(ExpectedConditions.textMatches(By.id("stat-capacity"), Pattern.compile("100\\D?000")));
        assertThat(browser.findElement(By.id("notice")).isDisplayed()).isFalse();
        Object urls = browser.executeScript("""
            return [location.href, ...performance.getEntriesByType('resource').map(e => e.name)].join(' ')""");
        assertThat(urls).as("every URL the page asked for").asString().contains("/api/stats").doesNotContain(key);
    }

    @Test
    void aNewLinkIsShownListedCopiedAndItsQrCodeReadsBackAsItsShortUrl() throws IOException {
        pasteKey(key);
        type("url", "https://example.com/from-the-page");
        type("alias", "from-the-page");
        browser.findElement(By.id("create")).click();
        WebElement created = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("created-link")));
        String shortUrl = created.getText();
        String code = shortUrl.substring(shortUrl.lastIndexOf('/') + 1);
        assertThat(shortUrl).isEqualTo("http://127.0.0.1:1/" + code);
        RawResponse stored = shortener.call("GET", "/api/links/" + code, null, key);
        assertThat(stored.bodyText()).contains("\"long_url\":\"https://example.com/from-the-page\"");

        WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(rowOf(code)));
        assertThat(row.findElement(By.cssSelector("td.long")).getText()).isEqualTo("https://example.com/from-the-page");
        row.findElement(By.cssSelector("button.copy")).click();
        wait.until(ExpectedConditions.textToBePresentInElement(row.findElement(By.cssSelector("button.copy")), "Copied"));
        Object clipboard = browser.executeAsyncScript("""
            const done = arguments[arguments.length - 1];
            navigator.clipboard.readText().then(done, e => done('cannot read the clipboard: ' + e));""");
        assertThat(clipboard).isEqualTo(shortUrl);

        row.findElement(By.cssSelector("button.qr")).click();
        WebElement qr = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("qr-image")));
        wait.until(driver -> (Boolean) browser.executeScript("return arguments[0].complete && arguments[0].naturalWidth > 0", qr));
        byte[] picture = qr.getScreenshotAs(OutputType.BYTES);
        Files.write(Files.createDirectories(SCREENSHOTS).resolve("qr-code.png"), picture);
        assertThat(QrImages.decode(ImageIO.read(new ByteArrayInputStream(picture)))).isEqualTo(shortUrl);
        browser.findElement(By.id("qr-close")).click();
    }

    @Test
    void eachRefusalOfTheApiIsShownInItsWordsNextToItsField() {
        pasteKey(key);
        type("url", "ftp://example.com/file");
        browser.findElement(By.id("create")).click();
        String expected = messageOf(shortener.call("POST", "/api/links", "{\"url\":\"ftp://example.com/file\"}", key));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("url-error"), expected));

        String alias = "taken-alias";
        shortener.create("{\"url\":\"https://example.com/first\",\"alias\":\"" + alias + "\"}", key);
        type("url", "https://example.com/second");
        type("alias", alias);
        browser.findElement(By.id("create")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("alias-error"), "this alias is already in use"));
        assertThat(browser.findElement(By.id("url-error")).isDisplayed()).as("the earlier error is cleared").isFalse();
    }

    @Test
    void deletingAsksFirstThenTheLinkIsGoneFromTheListAndTheServer() {
        String code = shortener.create("{\"url\":\"https://example.com/to-delete\"}", key);
        pasteKey(key);
        WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(rowOf(code)));
        row.findElement(By.cssSelector("button.delete")).click();
        assertThat(row.findElements(By.cssSelector("button.delete"))).as("asked first").isEmpty();
        row.findElement(By.cssSelector("button.confirm-no")).click();
        assertThat(row.findElements(By.cssSelector("button.delete, button.copy, button.qr"))).hasSize(3);
        assertThat(shortener.call("GET", "/" + code).status()).as("No keeps the link").isEqualTo(302);

        row.findElement(By.cssSelector("button.delete")).click();
        row.findElement(By.cssSelector("button.confirm-yes")).click();
        wait.until(ExpectedConditions.numberOfElementsToBe(rowOf(code), 0));
        assertThat(shortener.call("GET", "/" + code).status()).isEqualTo(410);
    }

    @Test
    void aHostileLongUrlIsShownAsTextAndRunsNothing() {
        String hostile = "https://example.com/<img/src=x/onerror=document.title='pwned'><script>document.title='pwned'</script>\"";
        String code = shortener.create("{\"url\":\"" + hostile.replace("\"", "\\\"") + "\"}", key);
        pasteKey(key);
        WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(rowOf(code)));
        assertThat(row.findElement(By.cssSelector("td.long")).getText()).isEqualTo(hostile);
        assertThat(row.findElements(By.tagName("img"))).isEmpty();
        assertThat(row.findElements(By.tagName("script"))).isEmpty();
        assertThat(browser.getTitle()).isEqualTo("hotpath shortener");
    }

    /** The codes of the rows shown, read in one script: a render cannot replace a row between two reads. */
    @SuppressWarnings("unchecked")
    private static List<String> codesShown() {
        return (List<String>) browser.executeScript(
            "return Array.from(document.querySelectorAll('#links tr'), row => row.dataset.code)");
    }

    @Test
    void theListPagesThroughEveryLinkWithTheNextCursor() {
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            codes.add(shortener.create("{\"url\":\"https://example.com/page/" + i + "\"}", key));
        }
        pasteKey(key);
        List<String> seen = new ArrayList<>();
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#links tr"), 20));
        while (true) {
            List<String> shown = codesShown();
            seen.addAll(shown);
            WebElement next = browser.findElement(By.id("next-page"));
            if (!next.isEnabled()) {
                break;
            }
            next.click();
            wait.until(driver -> !shown.getLast().equals(codesShown().getLast()));
        }
        assertThat(seen).containsAll(codes).doesNotHaveDuplicates();
        assertThat(browser.findElement(By.id("first-page")).isEnabled()).isTrue();
        browser.findElement(By.id("first-page")).click();
        wait.until(ExpectedConditions.attributeToBe(By.cssSelector("#links tr:first-child"), "data-code", seen.getFirst()));
    }

    @Test
    void anExpiryInTheUsersTimeZoneIsStoredInUtcAndAHalfFilledOneIsRefused() {
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Kolkata"));
        try {
            pasteKey(key);
            type("url", "https://example.com/expiring");
            setValue("expires", "2030-01-02T03:04");
            browser.findElement(By.id("create")).click();
            String shortUrl = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("created-link"))).getText();
            String code = shortUrl.substring(shortUrl.lastIndexOf('/') + 1);
            assertThat(shortener.call("GET", "/api/links/" + code, null, key).bodyText())
                .as("03:04 in India (+05:30) is 21:34 UTC the day before")
                .contains("\"expires_at\":\"2030-01-01T21:34:00.000Z\"");

            type("url", "https://example.com/half");
            browser.findElement(By.id("expires")).sendKeys("01022030");
            browser.findElement(By.id("create")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("expires-error"), "both a date and a time"));
            assertThat(shortener.call("GET", "/api/stats", null, key).bodyText()).contains("\"links\":1,");
        } finally {
            browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", ""));
        }
    }

    private void pasteKey(String value) {
        type("key", value);
        browser.findElement(By.cssSelector("#key-form button")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("app")));
    }

    /** Sets an input's value as a script would (a date field's typing depends on the browser's locale). */
    private static void setValue(String id, String value) {
        browser.executeScript("arguments[0].value = arguments[1]", browser.findElement(By.id(id)), value);
    }

    private static void type(String id, String text) {
        WebElement field = browser.findElement(By.id(id));
        field.clear();
        field.sendKeys(text);
    }

    private static By rowOf(String code) {
        return By.cssSelector("#links tr[data-code='" + code + "']");
    }

    private static String messageOf(RawResponse refusal) {
        var matcher = Pattern.compile("\"message\":\"([^\"]*)\"").matcher(refusal.bodyText());
        assertThat(matcher.find()).as(refusal.bodyText()).isTrue();
        return matcher.group(1);
    }
}
