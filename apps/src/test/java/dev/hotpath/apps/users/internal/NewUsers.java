package dev.hotpath.apps.users.internal;

import java.nio.charset.StandardCharsets;

/** Users made for the stores' and the reader's tests, as a reader would fill them, not checked. */
final class NewUsers {
    private NewUsers() {
    }

    /** A user of the two fields' UTF-8 bytes; a null field is one the request lacks. */
    static NewUser of(byte[] name, byte[] email) {
        NewUser user = new NewUser();
        if (name != null) {
            user.setName(name, 0, name.length);
        }
        if (email != null) {
            user.setEmail(email, 0, email.length);
        }
        return user;
    }

    static NewUser of(String name, String email) {
        return of(name.getBytes(StandardCharsets.UTF_8), email.getBytes(StandardCharsets.UTF_8));
    }
}
