package dev.hotpath.apps.users.internal;

import dev.hotpath.http.Responder;
import java.sql.SQLException;

/** Where the users app keeps its users: reads on the event loop; creates differ per store. */
public interface UserStore extends AutoCloseable {
    /** How many users a new store starts with: ids 1 to this, created {@link UserJson#PRELOADED_AT}. */
    int PRELOADED = 10_000;
    /** A preloaded user's name is this and its id ({@code user-7}); its email, that name and {@link #PRELOADED_EMAIL_DOMAIN}. */
    String PRELOADED_NAME_PREFIX = "user-";
    String PRELOADED_EMAIL_DOMAIN = "@example.com";

    /**
     * Answers {@code 200} with user {@code id} and returns true, or returns false without answering
     * when there is none; throws before answering when the store fails.
     */
    boolean find(long id, Responder responder) throws SQLException;

    /**
     * Answers with the users whose ids are above {@code after}, ascending, at most {@code limit}, as a
     * page's JSON; throws before answering when the store fails.
     */
    void page(long after, int limit, Responder responder) throws SQLException;

    @Override
    void close();
}
