/** The {@code hotpath} command line: serve, bench, keys, social; built into the fat jar. */
module dev.hotpath.cli {
    requires dev.hotpath.apps;
    requires dev.hotpath.loadgen;
    requires info.picocli;
    requires jdk.management;
    requires jdk.unsupported;

    opens dev.hotpath.cli to info.picocli;
}
