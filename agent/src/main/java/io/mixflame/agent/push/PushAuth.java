package io.mixflame.agent.push;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * How pushes authenticate: a bearer token ({@code authtoken=}), a user and password for basic auth
 * ({@code authuser=}, {@code authpassword=}), or nothing. Each may come from the environment instead
 * ({@value #TOKEN_ENV}, {@value #USER_ENV}, {@value #PASSWORD_ENV}); the options win.
 *
 * <p>A class rather than a record, so that {@link #toString()} masks the secrets: it ends up in the agent options'
 * own {@code toString()}. No message of this class names a secret either.
 */
public final class PushAuth {
    /** The environment variable of the bearer token. */
    public static final String TOKEN_ENV = "MIXFLAME_AUTH_TOKEN";
    /** The environment variable of the basic auth user. */
    public static final String USER_ENV = "MIXFLAME_AUTH_USER";
    /** The environment variable of the basic auth password. */
    public static final String PASSWORD_ENV = "MIXFLAME_AUTH_PASSWORD";
    /** No authentication. */
    public static final PushAuth NONE = new PushAuth(null, null, null);
    private static final String MASK = "***";

    private final String token;
    private final String user;
    private final String password;

    private PushAuth(String token, String user, String password) {
        this.token = token;
        this.user = user;
        this.password = password;
    }

    /**
     * The authentication the options ask for, each option null when not given, else the environment's. Options
     * that give a token or a user decide the kind; a password alone may come from the environment (off the
     * command line).
     *
     * @param env the environment, such as {@link System#getenv()}
     * @throws IllegalArgumentException with a one-line message that names the options, never their values
     */
    public static PushAuth resolve(String token, String user, String password, Map<String, String> env) {
        if (token != null) {
            if (user != null || password != null) {
                throw new IllegalArgumentException("authtoken= and authuser=/authpassword= are both given; use one");
            }
            return bearer(token, "authtoken=");
        }
        if (user != null || password != null) {
            return basic(user != null ? user : env.get(USER_ENV),
                    password != null ? password : env.get(PASSWORD_ENV), "authuser=", "authpassword=");
        }
        String envToken = env.get(TOKEN_ENV);
        String envUser = env.get(USER_ENV);
        String envPassword = env.get(PASSWORD_ENV);
        if (envToken != null && !envToken.isEmpty()) {
            return bearer(envToken, TOKEN_ENV);
        }
        if ((envUser == null || envUser.isEmpty()) && (envPassword == null || envPassword.isEmpty())) {
            return NONE;
        }
        return basic(envUser, envPassword, USER_ENV, PASSWORD_ENV);
    }

    private static PushAuth bearer(String token, String source) {
        checkHeaderText(token, source);
        return new PushAuth(token, null, null);
    }

    private static PushAuth basic(String user, String password, String userSource, String passwordSource) {
        if (user == null || user.isEmpty()) {
            throw new IllegalArgumentException(passwordSource + " needs a user: " + userSource + " (or " + USER_ENV
                    + ")");
        }
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException(userSource + " needs a password: " + passwordSource + " (or "
                    + PASSWORD_ENV + ")");
        }
        if (user.indexOf(':') >= 0) {
            throw new IllegalArgumentException(userSource + " must not hold ':' (basic auth separates user and "
                    + "password by it)");
        }
        checkHeaderText(user, userSource);
        checkHeaderText(password, passwordSource);
        return new PushAuth(null, user, password);
    }

    /** A header value must not break its line: a line break would let the value add headers of its own. */
    private static void checkHeaderText(String value, String source) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException(source + " holds a control character");
            }
        }
    }

    /** Whether there is nothing to authenticate with. */
    public boolean isNone() {
        return token == null && user == null;
    }

    /** The value of the {@code Authorization} header, or null for none. */
    String header() {
        if (token != null) {
            return "Bearer " + token;
        }
        if (user != null) {
            return "Basic " + basicCredentials();
        }
        return null;
    }

    /**
     * {@code text} with every secret (the token, the password, the basic credentials as the header carries them)
     * masked: for what a server answers, which may echo the request's headers.
     */
    String redact(String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        if (token != null) {
            result = result.replace(token, MASK);
        }
        if (user != null) {
            result = result.replace(basicCredentials(), MASK).replace(password, MASK);
        }
        return result;
    }

    private String basicCredentials() {
        return Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The kind of authentication, its secret masked. */
    @Override
    public String toString() {
        if (token != null) {
            return "bearer " + MASK;
        }
        if (user != null) {
            return "basic " + MASK;
        }
        return "none";
    }
}
