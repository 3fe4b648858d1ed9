package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CreateAdmissionTest {
    private final LinkTable table = new LinkTable(2);
    private final CreateAdmission admission = new CreateAdmission(table, 2);

    private static NewLink link(String name) {
        return new NewLink("https://a.example/", name, false, 0, -1);
    }

    @Test
    void refusesAnAliasAnotherRequestInFlightHasClaimed() {
        assertThat(admission.admit(link("launch"))).isNull();
        assertThat(admission.admit(link("launch"))).isSameAs(Errors.ALIAS_TAKEN);
    }

    @Test
    void countsLinksInFlightAgainstCapacityUntilTheyAreStoredOrReleased() {
        NewLink first = link(null);
        NewLink second = link("second");
        assertThat(admission.admit(first)).isNull();
        assertThat(admission.admit(second)).isNull();
        assertThat(admission.admit(link("third"))).isSameAs(Errors.CAPACITY_FULL);
        assertThat(admission.admit(link("third"))).as("the refused alias was given back").isSameAs(Errors.CAPACITY_FULL);

        admission.release(List.of(second));
        assertThat(admission.admit(link("second"))).as("a released place and name are free again").isNull();
    }

    @Test
    void aStoredLinkKeepsItsPlaceThroughTheTable() {
        NewLink first = link(null);
        assertThat(admission.admit(first)).isNull();
        table.publish(0, first.url(), 0, null, false, -1, 0, false);
        admission.stored(List.of(first));

        assertThat(admission.admit(link(null))).isNull();
        assertThat(admission.admit(link(null))).isSameAs(Errors.CAPACITY_FULL);
    }
}
