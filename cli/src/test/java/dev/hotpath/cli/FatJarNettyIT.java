package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The fat jar holds one Netty: the engine's, pinned by the root pom's netty-bom. Lettuce brings Netty
 * too; were Maven to pick another version for one of its modules, the shade plugin would merge both
 * into one class path and the first class loaded would decide which one runs, a failure that shows
 * only at run time.
 */
class FatJarNettyIT {
    private static final Pattern NETTY_POM = Pattern.compile("META-INF/maven/io\\.netty/([^/]+)/pom\\.properties");

    @Test
    void everyNettyModuleInTheFatJarIsThePinnedVersion() throws IOException {
        String pinned = System.getProperty("netty.version");
        Map<String, String> versions = new TreeMap<>();
        try (ZipFile jar = new ZipFile(System.getProperty("hotpath.jar"))) {
            jar.stream().forEach(entry -> {
                var pom = NETTY_POM.matcher(entry.getName());
                if (pom.matches()) {
                    versions.put(pom.group(1), properties(jar, entry).getProperty("version"));
                } else if (entry.getName().equals("META-INF/io.netty.versions.properties")) {
                    properties(jar, entry).forEach((key, value) -> {
                        if (key.toString().endsWith(".version")) {
                            versions.put(key.toString(), value.toString());
                        }
                    });
                }
            });
        }

        assertThat(pinned).isNotBlank();
        assertThat(versions).containsKeys("netty-common", "netty-transport", "netty-handler");
        assertThat(versions).allSatisfy((module, version) -> assertThat(version).as(module).isEqualTo(pinned));
    }

    private static Properties properties(ZipFile jar, ZipEntry entry) {
        Properties properties = new Properties();
        try (InputStream in = jar.getInputStream(entry)) {
            properties.load(in);
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + entry.getName(), e);
        }
    }
}
