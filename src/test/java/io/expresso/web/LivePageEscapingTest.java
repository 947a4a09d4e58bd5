package io.expresso.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.metrics.ExternalTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Task-supplied strings on the live page are text, never markup: the page builds its DOM from
 * text nodes and attribute values (live.js), and a real headless Chromium running the page on the
 * server's JSON shows a hostile experiment, suite, category, model and worker as the characters
 * they are.
 */
class LivePageEscapingTest {

  private static final String SCRIPT = "<script>document.title='pwned'</script>";
  private static final String IMG = "<img src=x onerror=\"document.title='pwned'\">";

  @Test
  void theScriptBuildsItsDomOnlyFromTextNodes() throws Exception {
    String js = Files.readString(Path.of("src/main/resources/web/live.js"));
    // each of these would parse a task-supplied string as HTML or code
    assertThat(js).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
        "new Function", "srcdoc");
  }

  @Test
  @Timeout(90)
  void aBrowserShowsHostileStringsAsText(@TempDir Path dir) throws Exception {
    Path chromium = ExternalTools.require("chromium", "chromium");
    LiveState state = new LiveState();
    state.pair("exp " + IMG, "brec:" + SCRIPT, "Basic|" + SCRIPT + "\nnext line\u001b[31m", "gin" + IMG, 0, true, true);
    state.worker("w\"><svg onload=\"document.title='pwned'\">", "cpu:0", 1.0, System.currentTimeMillis());
    // the real page and script, fed the server's JSON for that state; fetch and EventSource are
    // stubbed so that the browser has no open connection and can be stopped once it has rendered
    // (inside a script element the JSON's own "<" must be escaped, or "</script>" in it ends the element)
    String json = state.json(System.currentTimeMillis()).replace("<", "\\u003c");
    String stub = "<script>const STATE = " + json + ";\n"
        + "window.fetch = () => Promise.resolve({ json: () => STATE });\n"
        + "window.EventSource = class { addEventListener() {} };</script>\n";
    Path web = Path.of("src/main/resources/web").toAbsolutePath();
    String page = Files.readString(web.resolve("index.html"))
        .replaceAll("<script src=\"/webjars/[^\"]*\"></script>", "")
        .replace("<script src=\"/static/live.js\"", stub + "<script src=\"" + web.resolve("live.js").toUri() + "\"");
    assertThat(page).contains(stub);
    Path html = dir.resolve("live.html");
    Files.writeString(html, page);
    var run = ExternalTools.run(List.of(chromium.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
        "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom", html.toUri().toString()), null, 60);
    String dom = run.output().substring(Math.max(0, run.output().indexOf("<html")));
    assertThat(dom).as(run.output()).contains("class=\"experiment\"");
    assertThat(dom).as("the title the page set, not one a task set").contains("<title>Expresso — live</title>");
    assertThat(dom).as(dom).contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;", "&lt;img src=x onerror=",
        "&lt;svg onload=");
    assertThat(dom).doesNotContain("<img", "<svg").doesNotContain("<script>document");
  }
}
