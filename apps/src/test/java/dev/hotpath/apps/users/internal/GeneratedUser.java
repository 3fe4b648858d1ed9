package dev.hotpath.apps.users.internal;

/** A user's JSON as jackson-core's generator writes it ({@link UserJson.AnswerWriter}): what every other writer of users is held to. */
final class GeneratedUser {
    private GeneratedUser() {
    }

    static byte[] json(long id, String name, String email, String createdAt) {
        return new UserJson.AnswerWriter().json(id, name, email, createdAt);
    }
}
