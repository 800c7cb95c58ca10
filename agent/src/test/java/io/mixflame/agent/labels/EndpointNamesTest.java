package io.mixflame.agent.labels;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EndpointNamesTest {
    @Test
    void aRouteIsTheEndpointWhereThereIsOneElseThePathWithoutItsIds() {
        assertThat(EndpointNames.of("GET", "/users/{id}", "/users/42")).isEqualTo("GET /users/{id}");
        assertThat(EndpointNames.of("GET", null, "/inline")).isEqualTo("GET /inline");
        assertThat(EndpointNames.of("POST", null, "/users/42/orders/3f2a9c0e7d1b4a55"))
                .isEqualTo("POST /users/*/orders/*");
        assertThat(EndpointNames.of(null, null, "/v1/items/550e8400-e29b-41d4-a716-446655440000"))
                .isEqualTo("/v1/items/*");
        assertThat(EndpointNames.of("GET", null, null)).isNull();
    }

    @Test
    void longPathsAreCutToTheirBounds() {
        assertThat(EndpointNames.of("GET", null, "/a/b/c/d/e/f/g/h/i/j")).isEqualTo("GET /a/b/c/d/e/f/g/h/…");
        assertThat(EndpointNames.of("GET", "/" + "x".repeat(500), null)).hasSize(EndpointNames.MAX_CHARS);
    }
}
