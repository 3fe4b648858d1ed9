package dev.hotpath.cli;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Reads {@code hotpath serve APP [--flag value]...} into its {@link AppCommand} without picocli, so that a
 * server process never loads it.
 *
 * <p>Why: picocli's 177 classes are compiled for Java 5, a class file version the JVM cannot verify ahead
 * of time, so no AOT cache holds them and every start parses them again; and picocli builds its model
 * of a command by reflection, garbage that stays resident in a server that allocates almost nothing
 * afterwards. An idle {@code serve users} on SQLite held 87 MB read by picocli and 81 MB read here, each
 * from its own AOT cache (docs/BENCHMARKS.md, 2026-12-08).
 *
 * <p>What it reads: the same {@code @Option} and {@code @Mixin} declarations picocli reads (a command
 * declares its flags once), in the two forms every serve flag is given, {@code --flag value} and
 * {@code --flag=value}, with values converted as picocli converts them: the option's converter, or a
 * {@code String}, {@code Path}, {@code int} or {@code Integer} in plain decimal, or an enum constant in
 * any case. Flags not given take their {@code defaultValue} through the same conversion. Anything else
 * it declines: help and version, an unknown or repeated flag, a missing value, a value that does not
 * convert or that starts with '-' (but for '-' itself, standard output). picocli then reads the line as
 * before, and serves it or refuses it with the message it always gave. So this reader accepts only lines
 * picocli accepts, with the same values ({@code ServeFlagsTest} compares the two).
 *
 * <p>Cost: it loads picocli's annotation types (and the converter interface) and reads a command's fields
 * by reflection, once; a declaration it cannot read (a flag without a value, a list, a positional
 * parameter) is a programming error, caught by the test that reads every app.
 */
final class ServeFlags {
    private static final String NO_DEFAULT = "__no_default_value__";

    private ServeFlags() {
    }

    /** A command whose flags were read, and which flags were on the line. */
    record Reading(AppCommand command, String app, Set<String> given) {
    }

    /** The app {@code args} names with its flags set, or null where picocli must read the line. */
    static Reading read(String[] args) {
        if (args.length < 2 || !args[0].equals("serve")) {
            return null;
        }
        Class<?>[] apps = ServeCommand.class.getAnnotation(CommandTree.Subcommands.class).value();
        Class<?> app = CommandTree.named(apps, args[1]);
        return app == null ? null : read(app, args, 2);
    }

    /** {@code app} with its flags set from {@code args[first..]}, or null where picocli must read them. */
    static Reading read(Class<?> app, String[] args, int first) {
        AppCommand command = (AppCommand) instance(app);
        Map<String, Flag> flags = new HashMap<>();
        declare(command, command.getClass(), flags);
        Set<Flag> seen = new HashSet<>();
        for (int i = first; i < args.length; i++) {
            int equals = args[i].indexOf('=');
            Flag flag = flags.get(equals > 0 ? args[i].substring(0, equals) : args[i]);
            if (flag == null || !seen.add(flag)) {
                return null;
            }
            String value;
            if (equals > 0) {
                value = args[i].substring(equals + 1);
            } else if (++i < args.length) {
                value = args[i];
            } else {
                return null;
            }
            if (value.isEmpty() || (value.startsWith("-") && !value.equals("-")) || !flag.set(value)) {
                return null;
            }
        }
        Set<String> given = new HashSet<>();
        for (Flag flag : new HashSet<>(flags.values())) {
            if (seen.contains(flag)) {
                given.addAll(Set.of(flag.option.names()));
            } else if (flag.option.required() || !flag.setDefault()) {
                return null;
            }
        }
        return new Reading(command, command.getClass().getAnnotation(Command.class).name(), Set.copyOf(given));
    }

    /** Adds the flags {@code type} (and its superclasses) declares on {@code holder}, mixins included. */
    private static void declare(Object holder, Class<?> type, Map<String, Flag> flags) {
        if (type.getSuperclass() != Object.class) {
            declare(holder, type.getSuperclass(), flags);
        }
        for (Field field : type.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.isAnnotationPresent(Spec.class)) {
                continue;
            }
            Option option = field.getAnnotation(Option.class);
            if (option != null) {
                Flag flag = new Flag(holder, accessible(field), option);
                for (String name : option.names()) {
                    flags.put(name, flag);
                }
            } else if (field.isAnnotationPresent(Mixin.class)) {
                Object mixin = instance(field.getType());
                set(holder, accessible(field), mixin);
                declare(mixin, field.getType(), flags);
            } else if (field.getAnnotations().length > 0) {
                throw new IllegalStateException("serve cannot read " + field + ": only @Option, @Mixin and @Spec");
            }
        }
    }

    /** One {@code @Option} field of one object; a class, not a record, so each is equal only to itself. */
    private static final class Flag {
        private final Object holder;
        private final Field field;
        private final Option option;

        Flag(Object holder, Field field, Option option) {
            this.holder = holder;
            this.field = field;
            this.option = option;
            if (option.arity().length() > 0 || option.split().length() > 0 || !convertible(field, option)) {
                throw new IllegalStateException("serve cannot read " + field + ": only single values of "
                    + "String, Path, int, Integer, an enum, or a type with its converter");
            }
        }

        /** Sets the field from {@code value}; false when it does not convert. */
        boolean set(String value) {
            Object converted;
            try {
                converted = convert(value);
            } catch (RuntimeException e) {
                return false;
            }
            if (converted == null) {
                return false;
            }
            ServeFlags.set(holder, field, converted);
            return true;
        }

        /** Sets the field to its {@code defaultValue}, if it has one; false when that does not convert. */
        boolean setDefault() {
            String value = option.defaultValue();
            return value.equals(NO_DEFAULT) || (!value.contains("${") && set(value));
        }

        /** {@code value} as the field's type, or null when picocli might read it otherwise. */
        private Object convert(String value) {
            Class<?> type = field.getType();
            if (option.converter().length > 0) {
                @SuppressWarnings("unchecked")
                ITypeConverter<Object> converter = (ITypeConverter<Object>) instance(option.converter()[0]);
                try {
                    return converter.convert(value);
                } catch (Exception e) {
                    return null;
                }
            }
            if (type == String.class) {
                return value;
            }
            if (type == Path.class) {
                try {
                    return Path.of(value);
                } catch (InvalidPathException e) {
                    return null;
                }
            }
            if (type == int.class || type == Integer.class) {
                return plainDecimal(value) ? Integer.valueOf(value) : null;
            }
            for (Object constant : type.getEnumConstants()) {
                if (((Enum<?>) constant).name().equalsIgnoreCase(value)) {
                    return constant;
                }
            }
            return null;
        }

        private static boolean convertible(Field field, Option option) {
            Class<?> type = field.getType();
            return option.converter().length > 0 || type == String.class || type == Path.class || type == int.class
                || type == Integer.class || type.isEnum();
        }

        /** Digits without a sign or a leading zero, which picocli and {@link Integer#valueOf} read alike. */
        private static boolean plainDecimal(String value) {
            if (value.length() > 1 && value.charAt(0) == '0') {
                return false;
            }
            for (int i = 0; i < value.length(); i++) {
                if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                    return false;
                }
            }
            return true;
        }
    }

    private static Field accessible(Field field) {
        field.setAccessible(true);
        return field;
    }

    private static void set(Object holder, Field field, Object value) {
        try {
            field.set(holder, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object instance(Class<?> type) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("serve cannot make a " + type.getName(), e);
        }
    }
}
