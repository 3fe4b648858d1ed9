package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository stands alone: no tracked file points outside it, and none is bulky.
 *
 * <ul>
 *   <li>No line of any tracked text file names the sibling {@code shared} directory (relative, or
 *       absolute under the machine's work directory) or any path under that work directory. This
 *       includes the raw output of published benchmark runs ({@code docs/benchmarks/<run>/...}), whose
 *       checkout paths are written relative to the repository root.</li>
 *   <li>No line under {@code docs/} names a jar or a shell script under {@code /tmp/}: a figure must
 *       not rest on a scratch build or script that the repository does not hold.</li>
 *   <li>No line of the docs or of the benchmark scripts names any other path under {@code /tmp/}: a
 *       command there must run from a clean clone. The raw output of a published run is exempt from
 *       this one rule only, since a project script may record the temporary data it made (a
 *       {@code mktemp} directory, a seed copy).</li>
 *   <li>Every link from {@code docs/BENCHMARKS.md} into {@code docs/benchmarks/}, and every raw run
 *       directory it names in backquotes, is a tracked file or directory.</li>
 *   <li>No tracked file is larger than 1 MiB.</li>
 * </ul>
 *
 * <p>Tracked files are {@code git ls-files} when git and the repository's {@code .git} are there,
 * otherwise every file under the root except build output ({@code target/}, {@code node_modules/}) and
 * the git-ignored run directories.
 */
class StandaloneRepositoryTest {
    private static final long MAX_BYTES = 1024 * 1024;
    // Built from parts so that this file does not match its own rules.
    private static final String WORK = "/" + "work/";
    private static final String SHARED_RELATIVE = ".." + "/shared";
    private static final String SHARED_ABSOLUTE = WORK + "shared";
    private static final String TMP = "/" + "tmp/";
    /** A jar or shell script under the scratch directory, e.g. a build copied aside. */
    private static final Pattern TMP_PROGRAM = Pattern.compile(Pattern.quote(TMP) + "[^\\s'\"`()]*?\\.(?:jar|sh)\\b");
    private static final String BENCHMARKS_MD = "docs/BENCHMARKS.md";
    /** A markdown link target, or a raw run directory (or file in one) named in backquotes. */
    private static final Pattern MD_LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern RUN_NAMED = Pattern.compile("`((?:\\d{8}T\\d{4,6}Z-[^`/\\s]+|jmh-history)(?:/[^`\\s]*)?)`");
    private static final Set<String> SCRIPT_SUFFIXES = Set.of(".sh", ".py", ".lua", ".ts", ".js", ".md", ".txt");
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "node_modules", "results", "data");

    /** The repository root, found from the working directory; other tests of the package read files under it too. */
    static final Path ROOT = findRoot();
    private static final List<String> TRACKED = trackedFiles();

    @Test
    void noTrackedFilePointsOutsideTheRepository() {
        List<String> offending = new ArrayList<>();
        for (String file : TRACKED) {
            byte[] bytes = read(file);
            if (bytes == null || isBinary(bytes)) {
                continue;
            }
            String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String problem = problem(file, lines[i]);
                if (problem != null) {
                    offending.add(file + ":" + (i + 1) + ": " + problem + ": " + abbreviate(lines[i].strip()));
                }
            }
        }
        assertThat(offending).as("lines pointing outside the repository").isEmpty();
    }

    @Test
    void noTrackedFileIsOverOneMebibyte() {
        List<String> bulky = new ArrayList<>();
        for (String file : TRACKED) {
            try {
                Path path = ROOT.resolve(file);
                if (Files.isRegularFile(path) && Files.size(path) > MAX_BYTES) {
                    bulky.add(file + " (" + Files.size(path) + " bytes)");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(bulky).as("tracked files over 1 MiB").isEmpty();
    }

    @Test
    void everyRawRunThatBenchmarksMdCitesIsTracked() {
        byte[] bytes = read(BENCHMARKS_MD);
        assertThat(bytes).as(BENCHMARKS_MD).isNotNull();
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<String> cited = new ArrayList<>();
        Matcher link = MD_LINK.matcher(text);
        while (link.find()) {
            if (link.group(1).startsWith("benchmarks/")) {
                cited.add("docs/" + link.group(1));
            }
        }
        Matcher run = RUN_NAMED.matcher(text);
        while (run.find()) {
            cited.add("docs/benchmarks/" + run.group(1));
        }
        assertThat(cited).as("raw runs cited by " + BENCHMARKS_MD).isNotEmpty();
        List<String> missing = cited.stream().filter(path -> !isTrackedFileOrDirectory(path)).toList();
        assertThat(missing).as("raw runs cited by " + BENCHMARKS_MD + " but not tracked").isEmpty();
    }

    @Test
    void theCheckSeesTheRepository() {
        assertThat(TRACKED).contains("README.md", "pom.xml", "cli/pom.xml");
        assertThat(TRACKED.size()).isGreaterThan(100);
    }

    @Test
    void theRulesCatchWhatTheyAreFor() {
        assertThat(problem("README.md", "see `" + SHARED_RELATIVE + "/DESIGN.md`")).isNotNull();
        assertThat(problem("docs/API.md", "cat " + WORK + "main/x")).isNotNull();
        assertThat(problem("docs/BENCHMARKS.md", "java -jar " + TMP + "a.jar")).isNotNull();
        assertThat(problem("bench/social/mix.sh", "#   --a 'java -jar " + TMP + "a.jar'")).isNotNull();
        assertThat(problem("docs/benchmarks/run/compare.md", "see " + SHARED_ABSOLUTE + "/api")).isNotNull();
        assertThat(problem("docs/benchmarks/run/compare.md", "A: `" + WORK + "main/bench/x.sh`")).isNotNull();
        assertThat(problem("docs/benchmarks/run/A1/result.json", "\"command\" : \"-jar " + WORK + "main/x\"")).isNotNull();
        assertThat(problem("docs/benchmarks/run/compare.md", "A: `java -jar " + TMP + "s/hp719.jar`")).isNotNull();
        assertThat(problem("docs/benchmarks/run/RESULT.txt", "Script: the loop below (" + TMP + "ab.sh).")).isNotNull();
        assertThat(problem("docs/benchmarks/run/result.json", "--a " + TMP + "s/srv.sh {port}")).isNotNull();

        assertThat(problem("docs/benchmarks/run/compare.md", "A: `bench/social/on-fresh-seed.sh " + TMP + "tmp.x/seed.db`")).isNull();
        assertThat(problem("docs/benchmarks/run/compare.md", "--tokens-file " + TMP + "tmp.yNc66BumEd")).isNull();
        assertThat(problem("docs/benchmarks/run/result.json", TMP + "x.shard and " + TMP + "x.jars")).isNull();
        assertThat(problem("http/src/main/java/X.java", "Path.of(\"" + TMP + "x\")")).isNull();
        assertThat(problem("docs/API.md", "the shared directory of the data dir")).isNull();
    }

    /** What is wrong with the line, or null. */
    private static String problem(String file, String line) {
        if (line.contains(SHARED_RELATIVE) || line.contains(SHARED_ABSOLUTE)) {
            return "names the shared directory outside the repository";
        }
        if (line.contains(WORK)) {
            return "names a path under " + WORK;
        }
        if (file.startsWith("docs/") && TMP_PROGRAM.matcher(line).find()) {
            return "names a scratch jar or script under " + TMP;
        }
        if (isRunRecord(file)) {
            return null;
        }
        if (line.contains(TMP) && (file.startsWith("docs/") || file.startsWith("bench/"))
            && SCRIPT_SUFFIXES.stream().anyMatch(file::endsWith)) {
            return "names a scratch path under " + TMP;
        }
        return null;
    }

    /** A file of a benchmark run's raw output: {@code docs/benchmarks/<run>/...}. */
    private static boolean isRunRecord(String file) {
        return file.startsWith("docs/benchmarks/") && file.indexOf('/', "docs/benchmarks/".length()) > 0;
    }

    private static boolean isTrackedFileOrDirectory(String path) {
        String dir = path.endsWith("/") ? path : path + "/";
        return TRACKED.contains(path) || TRACKED.stream().anyMatch(f -> f.startsWith(dir));
    }

    private static boolean isBinary(byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, 8000); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    private static String abbreviate(String line) {
        return line.length() <= 160 ? line : line.substring(0, 157) + "...";
    }

    private static byte[] read(String file) {
        Path path = ROOT.resolve(file);
        if (!Files.isRegularFile(path)) {
            return null; // deleted in the working tree, or a submodule
        }
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Up from the working directory to the one holding {@code .git} or the parent pom (one with modules). */
    private static Path findRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(".git"))) {
                return dir;
            }
            Path pom = dir.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<modules>")) {
                    return dir;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }

    private static List<String> trackedFiles() {
        if (Files.exists(ROOT.resolve(".git"))) {
            List<String> fromGit = gitLsFiles();
            if (fromGit != null) {
                return fromGit;
            }
        }
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isRegularFile)
                .map(p -> ROOT.relativize(p).toString().replace('\\', '/'))
                .filter(p -> Arrays.stream(p.split("/")).noneMatch(SKIPPED_DIRS::contains))
                .sorted()
                .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tracked files, or null when git cannot be run here. */
    private static List<String> gitLsFiles() {
        try {
            Process git = new ProcessBuilder("git", "-c", "core.quotepath=off", "ls-files", "-z")
                .directory(ROOT.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
            byte[] out = git.getInputStream().readAllBytes();
            if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
                return null;
            }
            return Arrays.stream(new String(out, StandardCharsets.UTF_8).split("\0"))
                .filter(s -> !s.isEmpty())
                .toList();
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
