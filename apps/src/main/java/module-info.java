/**
 * The apps served on the engine: the {@link dev.hotpath.apps.App} contract, the shortener, social and
 * users. Each app's public face is its root package; the shortener's machinery in
 * {@code dev.hotpath.apps.shortener.internal} and the messages' in {@code dev.hotpath.apps.messages.internal}
 * are exported to the JMH benchmarks alone.
 */
module dev.hotpath.apps {
    requires transitive dev.hotpath.http;
    requires transitive dev.hotpath.store;
    requires com.google.zxing;

    exports dev.hotpath.apps;
    exports dev.hotpath.apps.shortener;
    exports dev.hotpath.apps.social;
    exports dev.hotpath.apps.users;
    exports dev.hotpath.apps.messages;
    exports dev.hotpath.apps.shortener.internal to dev.hotpath.bench;
    exports dev.hotpath.apps.messages.internal to dev.hotpath.bench;
}
