package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServiceNameTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
        "/opt/shop/checkout-2.1.jar --port 8080|checkout-2.1",
        "C:\\apps\\Billing.JAR|Billing",
        "com.example.shop.Checkout arg|Checkout",
        "Main|Main",
        "com.example.shop/com.example.shop.Main|com.example.shop",
        "Checkout.java|Checkout",
        "'  '|java",
        "null|java"})
    void withoutTheOptionTheCommandLineNamesTheService(String command, String name) {
        assertThat(ServiceName.of(null, command)).isEqualTo(name);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "checkout|checkout",
        "shop checkout{x}|shop_checkout_x_",
        "ünïcode/../x|_n_code_.._x"})
    void namesKeepLettersDigitsDotsUnderscoresAndDashesOnly(String option, String name) {
        assertThat(ServiceName.of(option, "ignored.Main")).isEqualTo(name);
    }

    @Test
    void namesAreBounded() {
        assertThat(ServiceName.of("x".repeat(1000), null)).hasSize(ServiceName.MAX_LENGTH);
    }
}
