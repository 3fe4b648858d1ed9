package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandTreeTest {
    private static final String[] EVERY_COMMAND = {"serve", "keys", "shortener", "bench", "social", "messages", "help"};
    private static final String[] EVERY_APP = {"shortener", "social", "users", "messages"};

    private static Map<String, CommandLine> children(CommandLine line, String... path) {
        CommandLine at = line;
        for (String name : path) {
            at = at.getSubcommands().get(name);
        }
        return at.getSubcommands();
    }

    @Test
    void buildsOnlyTheCommandsTheArgumentsName() {
        CommandLine line = CommandTree.build(HotpathCommand.class, new String[] {"serve", "users", "--bind", "127.0.0.1:0"});
        assertThat(children(line)).containsOnlyKeys("serve");
        assertThat(children(line, "serve")).containsOnlyKeys("users");
        assertThat(children(CommandTree.build(HotpathCommand.class, new String[] {"social", "seed"}), "social"))
            .containsOnlyKeys("seed");
    }

    @Test
    void buildsEveryChildWhereTheNextArgumentNamesNone() {
        assertThat(children(CommandTree.build(HotpathCommand.class, new String[0]))).containsOnlyKeys(EVERY_COMMAND);
        assertThat(children(CommandTree.build(HotpathCommand.class, new String[] {"--help"}))).containsOnlyKeys(EVERY_COMMAND);
        assertThat(children(CommandTree.build(HotpathCommand.class, new String[] {"serve", "shortcake"}), "serve"))
            .containsOnlyKeys(EVERY_APP);
        assertThat(children(CommandTree.build(HotpathCommand.class, new String[] {"bench", "ping"}), "bench"))
            .containsOnlyKeys("compare", "suite", "engines");
    }

    @Test
    void helpGetsTheWholeTreeItDescribes() {
        CommandLine line = CommandTree.build(HotpathCommand.class, new String[] {"help", "serve"});
        assertThat(children(line)).containsOnlyKeys(EVERY_COMMAND);
        assertThat(children(line, "serve")).containsOnlyKeys(EVERY_APP);
    }
}
