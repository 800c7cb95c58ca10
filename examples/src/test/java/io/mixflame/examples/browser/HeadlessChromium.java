package io.mixflame.examples.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * A headless Chromium driven through ChromeDriver, with what a person at the browser would see: the page's pixels,
 * its prompts, and its console. Closing it ends the browser and the driver.
 */
public final class HeadlessChromium implements AutoCloseable {
    /**
     * Selenium looks for DevTools bindings of the browser's version to offer its CDP API, which nothing here uses,
     * and warns when a Chromium newer than it has none; held here so the level set stays set.
     */
    private static final Logger CDP_VERSION_FINDER = quiet("org.openqa.selenium.devtools.CdpVersionFinder");

    private final ChromeDriver driver;

    private HeadlessChromium(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Starts the toolchain's Chromium with a viewport of the given size in CSS pixels (one device pixel each). */
    public static HeadlessChromium start(BrowserToolchain browser, Path logDir, int width, int height) {
        ChromeOptions options = new ChromeOptions();
        // With the binary and the driver named, Selenium Manager (which would download them) is never run.
        options.setBinary(browser.chromium().toFile());
        // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start; --disable-dev-shm-usage: a
        // container's small /dev/shm would crash the renderer.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=" + width + "," + height, "--hide-scrollbars");
        // The console, uncaught exceptions and failed loads all reach the browser log, which ChromeDriver keeps.
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(browser.chromedriver().toFile())
                .withLogFile(logDir.resolve("chromedriver.log").toFile()).build();
        ChromeDriver driver = new ChromeDriver(service, options);
        // --window-size sizes the window, of which the page gets less; screenshots are to be of the asked size.
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
        return new HeadlessChromium(driver);
    }

    private static Logger quiet(String name) {
        Logger logger = Logger.getLogger(name);
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    /** Opens a local file, as a person double-clicking it would, and waits until the page has loaded. */
    public void open(Path file) {
        driver.get(file.toUri().toString());
    }

    /** Runs a script in the page, as {@code return ...} in a function body; what it returns comes back as Java. */
    public Object evaluate(String functionBody, Object... args) {
        return driver.executeScript(functionBody, args);
    }

    /**
     * Clicks the element with this id, as the page's own script would: a pointer click at its centre is refused where
     * the page's heading is drawn over it, which depends on the window's size and fonts, not on the page's behaviour.
     */
    public void click(String id) {
        driver.executeScript("arguments[0].click();", driver.findElement(By.id(id)));
    }

    /** The text of the element with this id, as rendered (empty while hidden). */
    public String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    /** Whether the element with this id is shown. */
    public boolean displayed(String id) {
        return driver.findElement(By.id(id)).isDisplayed();
    }

    /** Waits for the page's {@code prompt()}, types the answer and presses OK. */
    public void answerPrompt(String answer, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                Alert prompt = driver.switchTo().alert();
                prompt.sendKeys(answer);
                prompt.accept();
                return;
            } catch (NoAlertPresentException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the page asked nothing within " + timeout);
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * The browser log's errors since the last call (console errors, uncaught exceptions, failed loads); each
     * call takes them from the log.
     */
    public List<String> newErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::toString).toList();
    }

    /** Scrolls the page to its bottom, where a flame graph's root and widest frames are. */
    public void scrollToBottom() {
        driver.executeScript("window.scrollTo(0, document.documentElement.scrollHeight)");
    }

    /** A PNG of the viewport as it is. */
    public void screenshot(Path png) throws IOException {
        Files.write(png, driver.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        driver.quit();
    }
}
