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

@Suite struct AccessKeyTests {
    @Test func theUnderscoreIsTakenOut() {
        #expect(AccessKey.removed(from: "_Save") == "Save")
        #expect(AccessKey.removed(from: "C_hoose") == "Choose")
        #expect(AccessKey.removed(from: "C_hoose %d Photos") == "Choose %d Photos")
        #expect(AccessKey.removed(from: "snake__case") == "snake_case")
        #expect(AccessKey.removed(from: "Plain") == "Plain")
    }

    @Test func aKeyAddedInParenthesesIsTakenOut() {
        #expect(AccessKey.removed(from: "保存(_S)") == "保存")
        #expect(AccessKey.removed(from: "选择 %d 张照片(_H)") == "选择 %d 张照片")
        #expect(AccessKey.removed(from: "打开文件夹(_O)…") == "打开文件夹…")
        #expect(AccessKey.removed(from: "取消 (_C)") == "取消")
        #expect(AccessKey.removed(from: "儲存（_S）") == "儲存")
    }
}

@Suite struct FailureWordsTests {
    @Test func contentTypesAreSaidAsAPersonSaysThem() {
        #expect(FailureWords.contents(ofType: "text/plain") == "a text file")
        #expect(FailureWords.contents(ofType: "text/html") == "a web page")
        #expect(FailureWords.contents(ofType: "application/pdf") == "a PDF document")
        #expect(FailureWords.contents(ofType: "video/mp4") == "a video")
        #expect(FailureWords.contents(ofType: "application/zip") == "an archive")
        #expect(FailureWords.contents(ofType: "image/x-unknown-raw") == "an image in a format this computer cannot show")
        #expect(FailureWords.contents(ofType: "application/octet-stream") == "data of another kind")
        #expect(FailureWords.contents(ofType: "nonsense") == "data of another kind")
    }

    @Test func loaderMessagesBecomeSentences() {
        #expect(FailureWords.loaderFailure("Error interpreting JPEG image file (Improper call to JPEG library in state 201)", header: false)
                == "The file is damaged, or is no photo this computer can read.")
        #expect(FailureWords.loaderFailure("Premature end of JPEG file", header: true)
                == "The end of this photo is missing: the file was cut short.")
        #expect(FailureWords.loaderFailure("bad Huffman code", header: true) == "The photo is damaged and cannot be shown.")
        #expect(FailureWords.loaderFailure(nil, header: true) == "The photo is damaged and cannot be shown.")
    }
}
