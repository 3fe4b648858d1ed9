package dev.hotpath.bench.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Users in a concurrent sorted map (scenarios S1 to S3), preloaded on creation; gone when the process
 * ends. A read is a skip-list lookup, a page a walk of its tail. Cost: roughly 200 bytes of heap a
 * user, 2 MB for the preloaded ones.
 */
final class MemoryUserStore implements UserStore {
    private final ConcurrentSkipListMap<Long, User> users = new ConcurrentSkipListMap<>();
    private final AtomicLong nextId = new AtomicLong(User.PRELOADED + 1);

    MemoryUserStore() {
        for (long id = 1; id <= User.PRELOADED; id++) {
            users.put(id, User.preloaded(id));
        }
    }

    @Override
    public User find(long id) {
        return users.get(id);
    }

    @Override
    public List<User> page(long after, int limit) {
        List<User> page = new ArrayList<>(limit);
        for (User user : users.tailMap(after, false).values()) {
            if (page.size() == limit) {
                break;
            }
            page.add(user);
        }
        return page;
    }

    @Override
    public User create(String name, String email, String createdAt) {
        User user = new User(nextId.getAndIncrement(), name, email, createdAt);
        users.put(user.id(), user);
        return user;
    }

    @Override
    public boolean blocking() {
        return false;
    }

    @Override
    public void close() {
    }
}
