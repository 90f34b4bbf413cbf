//! Text others see on pages and in lists that a client or a bot chose: what a name, an author
//! or a version may hold (issue 48; docs/api.md, "Names"). A leaf: the HTTP client cleans what
//! a bot reports with it, [`crate::bots`] checks what a client sends.

/// `wanted` made into text [`crate::bots::check_name`] takes, length apart: in NFC, without the
/// characters a name may not hold, trimmed (`cardroom play` names a bot after its own `GET /`).
pub fn printable_name(wanted: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let kept: String = wanted
        .nfc()
        .filter(|&c| unprintable(c).is_none() && !matches!(c, '<' | '>'))
        .collect();
    kept.trim().to_string()
}

/// What a bot reports about itself (`GET /`: its name, author, version), as shown: printable
/// text by [`printable_name`], at most 64 characters. A report is the bot's, not a request the
/// arena can refuse, so it is cleaned, not refused.
pub fn shown(reported: &str) -> String {
    printable_name(reported).chars().take(64).collect()
}

/// Why `c` may not be in a name, if it may not: what it is.
pub fn unprintable(c: char) -> Option<&'static str> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    const BIDI_CONTROLS: &[char] = &[
        '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}',
        '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
    ];
    const ZERO_WIDTH: &[char] = &['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}'];
    if BIDI_CONTROLS.contains(&c) {
        return Some("a bidirectional control (it reorders the text around it)");
    }
    if ZERO_WIDTH.contains(&c) {
        return Some("a zero-width character (invisible)");
    }
    match c.general_category() {
        GeneralCategory::Control => Some("a control character"),
        GeneralCategory::Format => Some("an invisible format character"),
        GeneralCategory::Surrogate | GeneralCategory::PrivateUse | GeneralCategory::Unassigned => {
            Some("a private-use or unassigned code point")
        }
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => {
            Some("a line or paragraph separator")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bots_report_is_shown_as_printable_text_of_at_most_64_characters() {
        assert_eq!(shown("evil\u{202E}bot <b>1</b>"), "evilbot b1/b");
        assert_eq!(shown(" zero\u{200B}width "), "zerowidth");
        assert_eq!(shown(&"é".repeat(100)).chars().count(), 64);
        assert_eq!(shown("e\u{301}"), "\u{e9}");
        assert_eq!(shown("1.2.3"), "1.2.3");
    }
}
