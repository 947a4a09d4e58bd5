package io.expresso.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EscapeTest {

  static final String HOSTILE = "a|b `code` *bold* _em_ [link](x) <script>alert('x')</script> & ~~s~~\n"
      + "line two\r\u001b[2J\u001b]0;title\u0007\u009b31m\u202egnp.exe\\";

  @Test
  void terminalKeepsOneLineAndNoControlSequence() {
    String t = Escape.terminal(HOSTILE);
    assertThat(t).doesNotContain("\n", "\r", "\u001b", "\u0007", "\u009b", "\u202e")
        .contains("\\n", "\\r", "\\u001b[2J", "\\u0007", "\\u009b", "\\u202e", "a|b `code`");
    assertThat(t.chars()).noneMatch(Character::isISOControl);
    assertThat(Escape.terminal("Regular")).isSameAs("Regular");
    assertThat(Escape.terminal("tab\there")).isEqualTo("tab\\there");
    assertThat(Escape.terminal(null)).isEmpty();
  }

  @Test
  void markdownEscapesEverySyntaxCharacterAndStaysOnOneLine() {
    String m = Escape.markdown(HOSTILE);
    assertThat(m).doesNotContain("\n", "\r", "\u001b")
        .startsWith("a\\|b \\`code\\` \\*bold\\* \\_em\\_ \\[link\\](x) \\<script\\>alert('x')\\</script\\> \\& \\~\\~s\\~\\~");
    // every special character is preceded by a backslash, so no unescaped "|" ends a table cell
    assertThat(m.replace("\\\\", "")).doesNotContainPattern("(?<!\\\\)[|`*_\\[\\]<>~&]");
    assertThat(Escape.markdown("1-wl")).isEqualTo("1-wl");
    assertThat(Escape.markdown("ppgn:hidden=16")).isEqualTo("ppgn:hidden=16");
  }

  @Test
  void htmlEscapesTheFiveCharacters() {
    assertThat(Escape.html("<a href=\"x\" title='y'>&amp;</a>"))
        .isEqualTo("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
    assertThat(Escape.html(null)).isEmpty();
  }
}
