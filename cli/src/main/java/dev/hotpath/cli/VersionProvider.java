package dev.hotpath.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest, with the JVM it runs on. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"hotpath " + (version == null ? "(development build)" : version)
            + " on Java " + Runtime.version()};
    }
}
