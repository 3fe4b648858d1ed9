package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules of docs/ARCHITECTURE.md, read from the compiled {@code module-info.class} of
 * each module of the reactor (this module's tests run with the reactor's root one level up): javac
 * enforces what the descriptors say, and this test pins what they must say. Dependencies point one
 * way ({@code cli → apps → (http, store)}, {@code cli → loadgen}), a module exports its root packages,
 * and an {@code .internal} package is exported to the benchmarks alone, or to nobody.
 */
class ModuleBoundaryTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theEngineRequiresNoOtherModuleOfOurs() {
        assertThat(ours(descriptor("http").requires())).isEmpty();
    }

    @Test
    void theStoreRequiresNeitherTheEngineNorAnyApp() {
        assertThat(ours(descriptor("store").requires())).isEmpty();
    }

    @Test
    void theAppsRequireOnlyTheEngineAndTheStore() {
        assertThat(ours(descriptor("apps").requires())).containsExactlyInAnyOrder("dev.hotpath.http", "dev.hotpath.store");
    }

    @Test
    void theHarnessKnowsNoServerItMeasures() {
        assertThat(ours(descriptor("loadgen").requires())).isEmpty();
    }

    @Test
    void theCommandLineRequiresTheAppsAndTheHarness() {
        assertThat(ours(descriptor("cli").requires())).containsExactlyInAnyOrder("dev.hotpath.apps", "dev.hotpath.loadgen");
    }

    @Test
    void internalPackagesAreExportedToTheBenchmarksAloneOrToNobody() {
        for (String module : new String[] {"http", "store", "apps", "loadgen", "cli"}) {
            ModuleDescriptor descriptor = descriptor(module);
            for (ModuleDescriptor.Exports export : descriptor.exports()) {
                if (export.source().contains(".internal")) {
                    assertThat(export.targets()).as(descriptor.name() + " exports " + export.source())
                        .containsExactly("dev.hotpath.bench");
                } else {
                    assertThat(export.isQualified()).as(descriptor.name() + " exports " + export.source()).isFalse();
                }
            }
        }
    }

    @Test
    void everyModuleExportsItsRootPackage() {
        assertThat(exported("http")).contains("dev.hotpath.http");
        assertThat(exported("store")).contains("dev.hotpath.store");
        assertThat(exported("apps")).contains("dev.hotpath.apps");
        assertThat(exported("loadgen")).contains("dev.hotpath.loadgen").doesNotContain("dev.hotpath.loadgen.internal");
    }

    private static Set<String> exported(String module) {
        return descriptor(module).exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    }

    private static Set<String> ours(Set<ModuleDescriptor.Requires> requires) {
        return requires.stream().map(ModuleDescriptor.Requires::name).filter(name -> name.startsWith("dev.hotpath."))
            .collect(Collectors.toSet());
    }

    private static ModuleDescriptor descriptor(String module) {
        Path file = ROOT.resolve(module).resolve("target/classes/module-info.class");
        assertThat(file).as("the compiled descriptor of " + module).exists();
        try (InputStream in = Files.newInputStream(file)) {
            return ModuleDescriptor.read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
