package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ListQueryTest {
    private static final String ID = "0194f5c2-7a3b-7cde-8f01-23456789abcd";

    @Test
    void toAloneAsksForTheNewestFifty() throws Exception {
        assertThat(ListQuery.parse("to=bob")).isEqualTo(new ListQuery(true, "bob", 50, null));
    }

    @Test
    void readsEveryParameter() throws Exception {
        assertThat(ListQuery.parse("limit=100&before=" + ID + "&from=alice"))
            .isEqualTo(new ListQuery(false, "alice", 100, MessageId.parse(ID)));
    }

    @Test
    void decodesPercentEscapesAsUtf8AndPlusAsSpace() throws Exception {
        assertThat(ListQuery.parse("to=b%C3%B6b+%2B%26x").user()).isEqualTo("böb +&x");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        "NULL|give exactly one of to and from",
        "limit=5|give exactly one of to and from",
        "to=a&from=b|give exactly one of to and from",
        "to=a&to=b|to is given more than once",
        "to=|to must not be empty",
        "to=%07|to must not contain control characters",
        "to=a&&limit=2|an empty query parameter (check for && or a trailing &)",
        "to=a&|an empty query parameter (check for && or a trailing &)",
        "to=a&sort=asc|unknown query parameter sort: use to or from, limit, before",
        "to=a&limit=0|limit must be a number from 1 to 100",
        "to=a&limit=101|limit must be a number from 1 to 100",
        "to=a&limit=+5|limit must be a number from 1 to 100",
        "to=a&limit=|limit must be a number from 1 to 100",
        "to=a&limit=0050|limit must be a number from 1 to 100",
        "to=a&before=42|before must be a message id (a UUID such as 0194f5c2-7a3b-7cde-8f01-23456789abcd)",
        "to=%zz|to has a malformed percent escape",
        "to=%C3|to is not UTF-8 once percent-decoded",
        "to=%ED%A0%80|to is not UTF-8 once percent-decoded",
    })
    void refusesWithAClearMessage(String query, String text) {
        assertThatThrownBy(() -> ListQuery.parse(query)).isInstanceOfSatisfying(Refusal.Refused.class, refused -> {
            assertThat(refused.refusal()).isEqualTo(Refusal.INVALID_QUERY);
            assertThat(refused.getMessage()).isEqualTo(text);
        });
    }

    @Test
    void aNameOfSixtyFourCharactersIsAcceptedAndSixtyFiveAreNot() throws Exception {
        assertThat(ListQuery.parse("from=" + "a".repeat(64)).user()).hasSize(64);
        assertThatThrownBy(() -> ListQuery.parse("from=" + "a".repeat(65)))
            .hasMessage("from must be at most 64 characters, was 65");
    }
}
