package io.mixflame.agent.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class HttpAddressTest {

    private static InetSocketAddress bound(String literal, int port) throws Exception {
        return new InetSocketAddress(InetAddress.getByName(literal), port);
    }

    @Test
    void parsesPortHostAndBracketedIpv6() {
        assertThat(HttpAddress.parse("8080")).isEqualTo(new HttpAddress("127.0.0.1", 8080));
        assertThat(HttpAddress.parse("0.0.0.0:0")).isEqualTo(new HttpAddress("0.0.0.0", 0));
        assertThat(HttpAddress.parse("[::1]:9")).isEqualTo(new HttpAddress("::1", 9));
        assertThat(HttpAddress.parse("[::1]:9")).hasToString("[::1]:9");
        assertThat(HttpAddress.parse("8080")).hasToString("127.0.0.1:8080");
        assertThatThrownBy(() -> HttpAddress.parse("host:")).hasMessageContaining("is not PORT");
        assertThatThrownBy(() -> HttpAddress.parse(":80")).hasMessageContaining("is not PORT");
        assertThatThrownBy(() -> HttpAddress.parse("65536")).hasMessageContaining("is not PORT");
    }

    @Test
    void wildcardUrlsNameTheLoopbackAddress() throws Exception {
        HttpAddress v4 = HttpAddress.parse("0.0.0.0:0");
        assertThat(v4.isWildcard()).isTrue();
        // Java reports a dual-stack wildcard socket as the IPv6 wildcard.
        assertThat(v4.url(bound("::", 45561))).isEqualTo("http://127.0.0.1:45561/");
        assertThat(v4.url(bound("0.0.0.0", 45561))).isEqualTo("http://127.0.0.1:45561/");
        HttpAddress v6 = HttpAddress.parse("[::]:0");
        assertThat(v6.isWildcard()).isTrue();
        assertThat(v6.url(bound("::", 7))).isEqualTo("http://[::1]:7/");
    }

    @Test
    void otherHostsAreShownAsWrittenIpv6InBrackets() throws Exception {
        HttpAddress loopback = HttpAddress.parse("127.0.0.1:0");
        assertThat(loopback.isWildcard()).isFalse();
        assertThat(loopback.url(bound("127.0.0.1", 80))).isEqualTo("http://127.0.0.1:80/");
        assertThat(HttpAddress.parse("[::1]:0").url(bound("::1", 80))).isEqualTo("http://[::1]:80/");
        assertThat(HttpAddress.parse("[fe80::1%2]:0").url(bound("::1", 80))).isEqualTo("http://[fe80::1%252]:80/");
        assertThat(HttpAddress.parse("localhost:0").url(bound("127.0.0.1", 80))).isEqualTo("http://localhost:80/");
    }
}
