import PhotoCore
import Testing

@Suite struct OutsideTextTests {
    @Test func controlCharactersAreDroppedAndBreaksBecomeOneSpace() {
        #expect(OutsideText("Bell\u{07}Escape\u{1B}[31mRed\u{7F}\u{85}x\u{9B}").cleaned == "BellEscape[31mRed x")
        #expect(OutsideText("two\r\nlines\t\there").cleaned == "two lines here")
        #expect(OutsideText("\n  leading\n").cleaned == "  leading")
        #expect(OutsideText("nul\u{0}inside").cleaned == "nulinside")
    }

    @Test func overridesEmbeddingsAndIsolatesAreDropped() {
        // "\u{202E}gpj.exe" would read "exe.jpg".
        #expect(OutsideText("photo\u{202E}gpj.exe").cleaned == "photogpj.exe")
        let every = "a\u{202A}b\u{202B}c\u{202C}d\u{202D}e\u{202E}f\u{2066}g\u{2067}h\u{2068}i\u{2069}j"
        #expect(OutsideText(every).cleaned == "abcdefghij")
        #expect(!OutsideText(every).isolated.dropFirst().dropLast().unicodeScalars.contains(where: OutsideText.isBidiFormatting))
    }

    @Test func marksAndOrdinaryTextAreKept() {
        #expect(OutsideText("שלום\u{200F}.jpg").cleaned == "שלום\u{200F}.jpg")
        #expect(OutsideText("A & B <i>").cleaned == "A & B <i>")
        #expect(OutsideText("照片 2024").cleaned == "照片 2024")
        #expect(OutsideText("👩‍👩‍👧 e\u{301}").cleaned == "👩‍👩‍👧 e\u{301}")
    }

    @Test func namesInSentencesAreIsolated() {
        #expect(OutsideText("Kyoto").isolated == "\u{2068}Kyoto\u{2069}")
        #expect(tr("“%s” has no images in it.", OutsideText("\u{202E}Kyoto")) == "“\u{2068}Kyoto\u{2069}” has no images in it.")
        #expect(OutsideText("\u{202E}").isolated == "")
    }

    @Test func namesOnTheirOwnAreIsolatedOnlyWhenRightToLeft() {
        #expect(OutsideText("Kyoto\u{1B}").standalone == "Kyoto")
        #expect(OutsideText("עיר").standalone == "\u{2068}עיר\u{2069}")
        #expect(OutsideText("مدينة.jpg").standalone == "\u{2068}مدينة.jpg\u{2069}")
    }
}

@Suite struct ShownTextTests {
    @Test func markupCharactersAreEscapedAsGLibDoes() {
        // As g_markup_escape_text writes them.
        #expect(ShownText.escapingMarkup("A & B") == "A &amp; B")
        #expect(ShownText.escapingMarkup("<span foreground=\"red\">it's</span>")
                == "&lt;span foreground=&quot;red&quot;&gt;it&#39;s&lt;/span&gt;")
        #expect(ShownText.escapingMarkup("\u{1}\u{8}\u{B}\u{1F}\u{7F}\u{84}\u{86}\u{9F}")
                == "&#x1;&#x8;&#xb;&#x1f;&#x7f;&#x84;&#x86;&#x9f;")
        #expect(ShownText.escapingMarkup("line\nbreak\ttab\u{85}") == "line\nbreak\ttab\u{85}")
        #expect(ShownText.escapingMarkup("照片 &amp;") == "照片 &amp;amp;")
    }

    @Test func aHostileReasonIsShownAsText() {
        let reason = "<span size=\"xx-large\" foreground=\"red\">Locked</span> <a href=\"https://x\">Verify</a>"
        let shown = ShownText(tr("The server gave an unexpected answer (%s).", OutsideText(reason)))
        #expect(!shown.markup.contains("<"))
        #expect(shown.plain.contains(reason))
    }

    @Test func ourTextKeepsItsBreaksAndIsolatesButLosesControlsAndOverrides() {
        #expect(ShownText("one\ntwo\tthree").plain == "one\ntwo\tthree")
        #expect(ShownText("a\u{7}b\u{1B}c\u{9B}d").plain == "abcd")
        #expect(ShownText("x\u{202E}gpj.exe").plain == "xgpj.exe")
        #expect(ShownText("“\u{2068}עיר\u{2069}”").plain == "“\u{2068}עיר\u{2069}”")
        #expect(ShownText(OutsideText("\u{202E}gpj.exe\u{7}")).plain == "gpj.exe")
    }
}
