package io.mixflame.agent.push;

/** The agent's option text as a log line may echo it: the values of the secret options and of URLs' users masked. */
public final class OptionSecrets {
    private static final String MASK = "***";

    private OptionSecrets() {
    }

    /**
     * {@code optionText} with the values of {@code authtoken=} and {@code authpassword=} masked, and so the user and
     * password of any URL ({@code http://user:password@host}), which the options refuse but a log line must not show
     * either.
     */
    public static String masked(String optionText) {
        String[] tokens = optionText.split(",", -1);
        StringBuilder sb = new StringBuilder(optionText.length());
        for (int i = 0; i < tokens.length; i++) {
            String token = tokens[i];
            String key = token.strip();
            int eq = key.indexOf('=');
            key = eq < 0 ? key : key.substring(0, eq);
            sb.append(i == 0 ? "" : ",");
            if (eq >= 0 && (key.equals("authtoken") || key.equals("authpassword"))) {
                sb.append(key).append('=').append(MASK);
            } else if (eq >= 0 && key.equals("header")) {
                // A header's name is shown, its value (a key, often) is not.
                String spec = token.strip().substring(eq + 1);
                int colon = spec.indexOf(':');
                sb.append("header=").append(colon < 0 ? MASK : spec.substring(0, colon + 1) + MASK);
            } else {
                sb.append(withoutUserInfo(token));
            }
        }
        return sb.toString();
    }

    private static String withoutUserInfo(String token) {
        int scheme = token.indexOf("://");
        if (scheme < 0) {
            return token;
        }
        int start = scheme + 3;
        int end = start;
        while (end < token.length() && "/?#".indexOf(token.charAt(end)) < 0) {
            end++;
        }
        int at = token.lastIndexOf('@', end - 1);
        if (at < start) {
            return token;
        }
        return token.substring(0, start) + MASK + token.substring(at);
    }
}
