package dev.hotpath.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line of one invocation, holding only the commands its arguments name.
 *
 * <p>picocli builds the model of every command listed in {@code @Command(subcommands)} when the root
 * is constructed, by reflection over each one's options and mixins: for {@code hotpath} about 10 MB of
 * short-lived objects, and the classes of every option type, converter and mixin, before the server
 * starts. (Choosing a child still loads the siblings' classes, to read their names.) A server's young
 * generation keeps each page that start-up touched resident, and hotpath's serving path allocates
 * almost nothing, so that garbage stayed in the process's memory for its whole life. Parents therefore
 * declare their children with {@link Subcommands} instead, and this class adds a child only when the
 * next argument is its name; when the next argument names none of them (help, an option, a scenario,
 * nothing, a typo) every child is added, so usage, help and picocli's own errors read as before.
 *
 * <p>Rule for callers: apply picocli settings after {@link #build}, since picocli gives a setting only
 * to the subcommands present when it is set.
 */
final class CommandTree {
    private CommandTree() {
    }

    /** A command's subcommands, added by {@link CommandTree} only when an invocation may need them. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface Subcommands {
        Class<?>[] value();
    }

    /** {@code root}'s command line with the commands {@code args} names, from its first element on. */
    static CommandLine build(Class<?> root, String[] args) {
        return withChildren(new CommandLine(root), root, args, 0);
    }

    private static CommandLine withChildren(CommandLine parent, Class<?> command, String[] args, int next) {
        Subcommands declared = command.getAnnotation(Subcommands.class);
        if (declared == null) {
            return parent;
        }
        Class<?> named = next < args.length ? named(declared.value(), args[next]) : null;
        if (named != null && named != CommandLine.HelpCommand.class) {
            parent.addSubcommand(withChildren(new CommandLine(named), named, args, next + 1));
        } else {
            for (Class<?> child : declared.value()) {
                parent.addSubcommand(withChildren(new CommandLine(child), child, args, args.length));
            }
        }
        return parent;
    }

    /** The child whose name or alias is {@code arg}, or null. */
    static Class<?> named(Class<?>[] children, String arg) {
        for (Class<?> child : children) {
            Command command = child.getAnnotation(Command.class);
            if (command.name().equals(arg)) {
                return child;
            }
            for (String alias : command.aliases()) {
                if (alias.equals(arg)) {
                    return child;
                }
            }
        }
        return null;
    }
}
