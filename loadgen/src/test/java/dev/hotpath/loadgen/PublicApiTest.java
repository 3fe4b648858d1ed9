package dev.hotpath.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The harness's exported packages ({@code dev.hotpath.loadgen} and {@code .scenario}) name no type of
 * {@code .internal} in anything a caller can reach: public and protected methods, constructors and
 * fields of public types, and the types they extend. A caller could otherwise reach into the
 * generator's mutable counters and parser buffers.
 */
class PublicApiTest {
    private static final List<String> EXPORTED = List.of("dev.hotpath.loadgen", "dev.hotpath.loadgen.scenario");

    @Test
    void theExportedPackagesNameNoInternalTypeInAnyReachableSignature() throws Exception {
        List<String> leaks = new ArrayList<>();
        List<Class<?>> types = exportedTypes();
        for (Class<?> type : types) {
            for (Type supertype : supertypes(type)) {
                leak(type.getName() + " extends", supertype, leaks);
            }
            for (Method method : type.getDeclaredMethods()) {
                if (reachable(method.getModifiers()) && !method.isSynthetic()) {
                    leak(type.getName() + "." + method.getName() + " returns", method.getGenericReturnType(), leaks);
                    for (Type parameter : method.getGenericParameterTypes()) {
                        leak(type.getName() + "." + method.getName() + " takes", parameter, leaks);
                    }
                }
            }
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (reachable(constructor.getModifiers())) {
                    for (Type parameter : constructor.getGenericParameterTypes()) {
                        leak(type.getName() + " constructor takes", parameter, leaks);
                    }
                }
            }
            for (Field field : type.getDeclaredFields()) {
                if (reachable(field.getModifiers())) {
                    leak(type.getName() + "." + field.getName() + " is", field.getGenericType(), leaks);
                }
            }
        }
        assertThat(types).as("the check sees the exported types").contains(Workload.class, RunResult.class, Tally.class,
            dev.hotpath.loadgen.scenario.PingScenario.class);
        assertThat(leaks).isEmpty();
    }

    private static boolean reachable(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static List<Type> supertypes(Class<?> type) {
        List<Type> all = new ArrayList<>(List.of(type.getGenericInterfaces()));
        if (type.getGenericSuperclass() != null) {
            all.add(type.getGenericSuperclass());
        }
        return all;
    }

    /** Records {@code type} when it, or a type argument of it, is internal. */
    private static void leak(String where, Type type, List<String> leaks) {
        if (type.getTypeName().contains(".internal.")) {
            leaks.add(where + " " + type.getTypeName());
        }
    }

    /** The public types, nested ones included, compiled from the exported packages. */
    private static List<Class<?>> exportedTypes() throws Exception {
        Path classes = Path.of(Workload.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> types = new ArrayList<>();
        for (String pkg : EXPORTED) {
            try (Stream<Path> files = Files.list(classes.resolve(pkg.replace('.', '/')))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    String name = file.getFileName().toString();
                    Class<?> type = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()), false,
                        PublicApiTest.class.getClassLoader());
                    if (Modifier.isPublic(type.getModifiers())) {
                        types.add(type);
                    }
                }
            }
        }
        return types;
    }
}
