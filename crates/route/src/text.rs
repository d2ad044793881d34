//! The analyzer: one pipeline turns both a skill's name and description and a
//! user's prompt into index terms, so the two always agree.
//!
//! Like tantivy's `TextAnalyzer`, it is a chain of small steps, each a
//! function or type with one job and its own tests:
//!
//! 1. [`normalize`]: Unicode NFKC (full-width letters, ligatures, composed
//!    and decomposed accents all become one form), then lowercase.
//! 2. [`pieces`]: cut the text into runs of scripts written *without* spaces
//!    (Han, Hiragana, Katakana, Hangul; see [`is_unspaced`]) and everything
//!    else.
//! 3. Spaced text: [`words`] finds words by the Unicode word-boundary rules
//!    (UAX #29); [`split_compound`] splits `snake_case`, `dotted.names`,
//!    `l'apostrophe` and the like into their parts (UAX #29 has already split
//!    hyphens); [`StopWords`] drops function words (by a list, never by
//!    length: `PR`, `CI`, `UI`, `QA`, `DB` carry a request's meaning);
//!    [`fold`] removes Latin diacritics, so `résumé` typed with or without
//!    accents is one word; [`Stem`] stems words written in the catalog
//!    language's script (English: inflections only, [`super::inflect`];
//!    other languages: Snowball). Each word yields one term, its stem: a
//!    word the stemmer changes weighs the same as one it leaves alone.
//! 4. Unspaced runs: [`bigrams`] indexes each run as overlapping character
//!    pairs (a lone character as itself), as search engines' CJK analyzers
//!    do; these are neither stop-filtered nor stemmed.

use rust_stemmers::{Algorithm, Stemmer};
use std::borrow::Cow;
use std::collections::HashSet;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};
use unicode_segmentation::UnicodeSegmentation;

/// The default stop words, kept deliberately short: inverse document
/// frequency already weighs down words common in a catalog, and in texts
/// as short as a prompt every dropped word is lost signal (a question word
/// or a preposition can be the only link: "safe *against*…", "*which*
/// skill applies"). Words are dropped by this list only, never by length
/// (two-letter words such as `PR`, `CI`, `QA` route). Four groups:
///
/// 1. Lucene's (and Elasticsearch's `_english_`) English stop set.
/// 2. Personal pronouns: requests address the agent ("can you…", "my
///    code") and descriptions the reader ("when you need…").
/// 3. The fragments contractions and abbreviations leave when
///    [`split_compound`] splits them (`doesn't` → `doesn`, `t`; `e.g.` →
///    `e`, `g`).
/// 4. The phrasing of requests and of skill descriptions: "help me", "I
///    need/want…", "please", "Use when the user asks to…".
///
/// Domain words are never listed, however common in one catalog (`skill`,
/// `code`, `test`). Extend the list with `[route] stop-words`.
pub const STOP_WORDS: &[&str] = &[
    // 1. Lucene English
    "a",
    "an",
    "as",
    "at",
    "be",
    "by",
    "if",
    "in",
    "is",
    "it",
    "no",
    "of",
    "on",
    "or",
    "to",
    "and",
    "are",
    "but",
    "for",
    "into",
    "not",
    "such",
    "that",
    "the",
    "their",
    "then",
    "there",
    "these",
    "they",
    "this",
    "was",
    "will",
    "with",
    // 2. personal pronouns
    "i",
    "me",
    "my",
    "we",
    "us",
    "he",
    "her",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "its",
    "itself",
    "mine",
    "myself",
    "our",
    "ours",
    "ourselves",
    "she",
    "them",
    "themselves",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    // 3. contraction and abbreviation fragments
    "s",
    "t",
    "d",
    "ll",
    "m",
    "re",
    "ve",
    "e",
    "g",
    "eg",
    "ie",
    "aren",
    "couldn",
    "didn",
    "doesn",
    "don",
    "hadn",
    "hasn",
    "haven",
    "isn",
    "mustn",
    "shan",
    "shouldn",
    "wasn",
    "weren",
    "won",
    "wouldn",
    // 4. request and description phrasing
    "ask",
    "asked",
    "asking",
    "asks",
    "help",
    "helps",
    "need",
    "needs",
    "please",
    "use",
    "used",
    "uses",
    "using",
    "want",
    "wants",
];

/// Step 1: NFKC, then lowercase. Borrows when the text is already both.
pub fn normalize(text: &str) -> Cow<'_, str> {
    let nfkc: Cow<str> = if text.is_ascii() || is_nfkc_quick(text.chars()) == IsNormalized::Yes {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfkc().collect())
    };
    if nfkc.chars().any(char::is_uppercase) {
        Cow::Owned(nfkc.to_lowercase())
    } else {
        nfkc
    }
}

/// Whether `c` belongs to a script written without spaces between words:
/// Han (with its iteration and ideographic marks), Hiragana, Katakana (with
/// the prolonged-sound mark) and Hangul.
pub fn is_unspaced(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF      // Hangul Jamo
        | 0x3005..=0x3007    // 々 〆 〇
        | 0x3021..=0x3029    // Hangzhou numerals
        | 0x3038..=0x303B
        | 0x3040..=0x309F    // Hiragana
        | 0x30A0..=0x30FF    // Katakana (incl. ー)
        | 0x3130..=0x318F    // Hangul compatibility Jamo
        | 0x31F0..=0x31FF    // Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xA960..=0xA97F    // Hangul Jamo extended-A
        | 0xAC00..=0xD7FF    // Hangul syllables, Jamo extended-B
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width Katakana
        | 0x20000..=0x3134F  // CJK extensions B–G, compatibility supplement
    )
}

/// A stretch of normalized text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text of scripts that separate words (spaces, punctuation, …).
    Spaced(&'a str),
    /// A maximal run of [`is_unspaced`] characters.
    Unspaced(&'a str),
}

/// Step 2: split text into alternating spaced and unspaced pieces.
pub fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let unspaced = is_unspaced(first);
        let end = rest
            .char_indices()
            .find(|&(_, c)| is_unspaced(c) != unspaced)
            .map_or(rest.len(), |(i, _)| i);
        let (head, tail) = rest.split_at(end);
        rest = tail;
        Some(if unspaced {
            Piece::Unspaced(head)
        } else {
            Piece::Spaced(head)
        })
    })
}

/// Step 3a: the words of spaced text by UAX #29 (segments holding at least
/// one letter or digit).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.unicode_words()
}

/// Step 3b: split a word at every character that is not a letter, digit or
/// combining mark: `snake_case` → `snake`, `case`; `package.json` →
/// `package`, `json`; `doesn't` → `doesn`, `t`.
pub fn split_compound(word: &str) -> impl Iterator<Item = &str> {
    word.split(|c: char| !(c.is_alphanumeric() || is_mark(c)))
        .filter(|s| !s.is_empty())
}

/// Combining marks that can sit inside a word after NFKC (scripts whose
/// vowel signs are marks, such as Devanagari or Thai).
fn is_mark(c: char) -> bool {
    unicode_normalization::char::is_combining_mark(c)
}

/// Step 3c: the stop-word filter.
#[derive(Debug, Clone)]
pub struct StopWords {
    words: HashSet<Box<str>, std::hash::BuildHasherDefault<super::index::FxHasher>>,
}

impl StopWords {
    /// [`STOP_WORDS`] plus `extra` (normalized like any other text).
    pub fn new(extra: &[String]) -> Self {
        Self::with_language(None, extra)
    }

    /// [`STOP_WORDS`], NLTK's stop words of the language whose ISO 639-1
    /// code is `code` (a catalog in Italian routes on its nouns and verbs,
    /// not on `di`, `la` and `del`), and `extra`; all normalized like any
    /// other text.
    pub fn with_language(code: Option<&str>, extra: &[String]) -> Self {
        let mut words: HashSet<Box<str>, _> = STOP_WORDS.iter().map(|w| Box::from(*w)).collect();
        let own = code
            .filter(|c| *c != "en")
            .and_then(stop_words::lookup)
            .unwrap_or_default();
        for w in own {
            let n = normalize(w.trim());
            if !n.is_empty() {
                words.insert(Box::from(n.as_ref()));
            }
        }
        for w in extra {
            let n = normalize(w.trim());
            if !n.is_empty() {
                words.insert(Box::from(n.as_ref()));
            }
        }
        StopWords { words }
    }

    pub fn contains(&self, token: &str) -> bool {
        self.words.contains(token)
    }
}

/// The scripts a Snowball stemmer is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Arabic,
    Cyrillic,
    Greek,
    Tamil,
}

impl Script {
    fn has(self, c: char) -> bool {
        let u = c as u32;
        match self {
            Script::Latin => {
                c.is_ascii_alphabetic()
                    || matches!(u, 0xAA | 0xBA | 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x24F | 0x1E00..=0x1EFF)
            }
            Script::Arabic => matches!(u, 0x600..=0x6FF | 0x750..=0x77F),
            Script::Cyrillic => matches!(u, 0x400..=0x52F),
            Script::Greek => matches!(u, 0x370..=0x3FF | 0x1F00..=0x1FFF),
            Script::Tamil => matches!(u, 0xB80..=0xBFF),
        }
    }

    /// Every letter of `token` is in this script (digits and marks may
    /// appear; at least one letter must).
    fn writes(self, token: &str) -> bool {
        let mut letters = false;
        for c in token.chars() {
            if c.is_alphabetic() {
                if !self.has(c) {
                    return false;
                }
                letters = true;
            }
        }
        letters
    }
}

/// The stemming languages `[route] language` accepts, with their Snowball
/// algorithm (`none` turns stemming off).
pub const LANGUAGES: &[(&str, &str)] = &[
    ("arabic", "ar"),
    ("danish", "da"),
    ("dutch", "nl"),
    ("english", "en"),
    ("finnish", "fi"),
    ("french", "fr"),
    ("german", "de"),
    ("greek", "el"),
    ("hungarian", "hu"),
    ("italian", "it"),
    ("norwegian", "no"),
    ("portuguese", "pt"),
    ("romanian", "ro"),
    ("russian", "ru"),
    ("spanish", "es"),
    ("swedish", "sv"),
    ("tamil", "ta"),
    ("turkish", "tr"),
];

/// Step 3f: stemming of words written in the language's script: for
/// English the inflectional stemmer of [`super::inflect`], for the other
/// languages their Snowball stemmer (rust-stemmers).
///
/// A stem costs about a microsecond per word while a catalog has few
/// distinct words, so each thread remembers the stems it computed (at most
/// [`STEM_CACHE_LIMIT`] per language, then it starts over).
pub struct Stem {
    stemmer: Option<(Backend, Script)>,
    /// Index of the language in [`LANGUAGES`] (the cache's key).
    lang: usize,
}

/// How a language's words are stemmed.
enum Backend {
    /// English: inflections only ([`super::inflect`]).
    Inflection,
    /// Snowball (rust-stemmers).
    Snowball(Stemmer),
}

/// Most stems one thread remembers per language.
pub const STEM_CACHE_LIMIT: usize = 200_000;

/// Word → its stem, `None` when the stem is the word.
type StemCache = super::index::FxMap<Box<str>, Option<Box<str>>>;

thread_local! {
    /// One [`StemCache`] per language.
    static STEMS: std::cell::RefCell<Vec<StemCache>> =
        std::cell::RefCell::new(vec![StemCache::default(); LANGUAGES.len()]);
}

impl std::fmt::Debug for Stem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stem")
            .field("script", &self.stemmer.as_ref().map(|s| s.1))
            .finish()
    }
}

impl Stem {
    /// The stemmer for `language` (a name or ISO 639-1 code from
    /// [`LANGUAGES`], or `none`); `None` for an unknown language.
    pub fn for_language(language: &str) -> Option<Stem> {
        let l = language.trim().to_ascii_lowercase();
        if l == "none" {
            return Some(Stem {
                stemmer: None,
                lang: 0,
            });
        }
        let lang = LANGUAGES
            .iter()
            .position(|(n, code)| *n == l || *code == l)?;
        let name = LANGUAGES[lang].0;
        let (alg, script) = match name {
            "arabic" => (Algorithm::Arabic, Script::Arabic),
            "danish" => (Algorithm::Danish, Script::Latin),
            "dutch" => (Algorithm::Dutch, Script::Latin),
            "english" => (Algorithm::English, Script::Latin),
            "finnish" => (Algorithm::Finnish, Script::Latin),
            "french" => (Algorithm::French, Script::Latin),
            "german" => (Algorithm::German, Script::Latin),
            "greek" => (Algorithm::Greek, Script::Greek),
            "hungarian" => (Algorithm::Hungarian, Script::Latin),
            "italian" => (Algorithm::Italian, Script::Latin),
            "norwegian" => (Algorithm::Norwegian, Script::Latin),
            "portuguese" => (Algorithm::Portuguese, Script::Latin),
            "romanian" => (Algorithm::Romanian, Script::Latin),
            "russian" => (Algorithm::Russian, Script::Cyrillic),
            "spanish" => (Algorithm::Spanish, Script::Latin),
            "swedish" => (Algorithm::Swedish, Script::Latin),
            "tamil" => (Algorithm::Tamil, Script::Tamil),
            _ => (Algorithm::Turkish, Script::Latin),
        };
        Some(Stem {
            stemmer: Some((
                if name == "english" {
                    Backend::Inflection
                } else {
                    Backend::Snowball(Stemmer::create(alg))
                },
                script,
            )),
            lang,
        })
    }

    pub fn stem<'a>(&self, token: &'a str) -> Cow<'a, str> {
        self.with_stem(token, |st| {
            if st == token {
                Cow::Borrowed(token)
            } else {
                Cow::Owned(st.to_string())
            }
        })
    }

    /// `f(stem of token)`, without copying a stem this thread has seen
    /// before. `f` must not stem anything itself.
    pub fn with_stem<R>(&self, token: &str, f: impl FnOnce(&str) -> R) -> R {
        let Some((s, script)) = &self.stemmer else {
            return f(token);
        };
        if !script.writes(token) {
            return f(token);
        }
        STEMS.with(|cache| {
            let mut cache = cache.borrow_mut();
            let map = &mut cache[self.lang];
            if let Some(hit) = map.get(token) {
                return f(hit.as_deref().unwrap_or(token));
            }
            let stemmed: Cow<str> = match s {
                Backend::Inflection => super::inflect::stem(token),
                Backend::Snowball(s) => s.stem(token),
            };
            if map.len() >= STEM_CACHE_LIMIT {
                map.clear();
            }
            let value = (stemmed != token).then(|| Box::from(stemmed.as_ref()));
            map.insert(Box::from(token), value);
            f(&stemmed)
        })
    }
}

/// Step 3e: remove diacritics from a Latin-script token (`résumé` →
/// `resume`, `naïve` → `naive`); other scripts are left alone, since there a
/// mark can make a different letter (Cyrillic `й` is not `и`).
pub fn fold(token: &str) -> Cow<'_, str> {
    if token.is_ascii() || !Script::Latin.writes(token) {
        return Cow::Borrowed(token);
    }
    let folded: String = token.nfd().filter(|&c| !is_mark(c)).nfc().collect();
    Cow::Owned(folded)
}

/// Step 4: overlapping character bigrams of an unspaced run; a run of one
/// character yields that character.
pub fn bigrams(run: &str, mut emit: impl FnMut(&str)) {
    let starts: Vec<usize> = run.char_indices().map(|(i, _)| i).collect();
    match starts.len() {
        0 => {}
        1 => emit(run),
        n => {
            for k in 0..n - 1 {
                let end = starts.get(k + 2).copied().unwrap_or(run.len());
                emit(&run[starts[k]..end]);
            }
        }
    }
}

/// The whole pipeline, configured once per run.
#[derive(Debug)]
pub struct Analyzer {
    stop: StopWords,
    stem: Stem,
}

impl Analyzer {
    /// An analyzer for `language` with [`STOP_WORDS`], the language's own
    /// stop words ([`StopWords::with_language`]) and `extra_stop`; `None`
    /// when the language is unknown.
    pub fn new(language: &str, extra_stop: &[String]) -> Option<Analyzer> {
        let l = language.trim().to_ascii_lowercase();
        let code = LANGUAGES
            .iter()
            .find(|(n, c)| *n == l || *c == l)
            .map(|(_, c)| *c);
        Some(Analyzer {
            stop: StopWords::with_language(code, extra_stop),
            stem: Stem::for_language(language)?,
        })
    }

    /// Call `emit(term, word)` for every term of `text` in order: `term` is
    /// the index term, `word` the normalized word it came from. `emit`
    /// must not analyze text itself.
    pub fn analyze(&self, text: &str, mut emit: impl FnMut(&str, &str)) {
        let text = normalize(text);
        for piece in pieces(&text) {
            match piece {
                Piece::Unspaced(run) => bigrams(run, |g| emit(g, g)),
                Piece::Spaced(s) => {
                    for w in words(s) {
                        for part in split_compound(w) {
                            if self.stop.contains(part) {
                                continue;
                            }
                            let folded = fold(part);
                            self.stem.with_stem(&folded, |t| emit(t, part));
                        }
                    }
                }
            }
        }
    }

    /// The terms of `text`, in order.
    pub fn terms(&self, text: &str) -> Vec<String> {
        let mut v = Vec::new();
        self.analyze(text, |t, _| v.push(t.to_string()));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> Analyzer {
        Analyzer::new("english", &[]).unwrap()
    }

    #[test]
    fn normalize_applies_nfkc_then_lowercase() {
        assert_eq!(normalize("ＡＰＩ Design"), "api design");
        assert_eq!(normalize("ﬁle"), "file");
        // decomposed é becomes the composed character
        assert_eq!(normalize("Re\u{301}sume\u{301}"), "r\u{e9}sum\u{e9}");
        assert!(matches!(normalize("already plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn pieces_separate_unspaced_runs() {
        let p: Vec<_> = pieces("use 测试驱动 for テスト").collect();
        assert_eq!(
            p,
            vec![
                Piece::Spaced("use "),
                Piece::Unspaced("测试驱动"),
                Piece::Spaced(" for "),
                Piece::Unspaced("テスト"),
            ]
        );
        assert_eq!(pieces("").count(), 0);
    }

    #[test]
    fn hangul_and_kana_are_unspaced_latin_is_not() {
        assert!(is_unspaced('한'));
        assert!(is_unspaced('ー'));
        assert!(is_unspaced('ひ'));
        assert!(!is_unspaced('a'));
        assert!(!is_unspaced('é'));
    }

    #[test]
    fn words_follow_uax29() {
        let w: Vec<_> = words("red-green-refactor, don't stop: v2.1").collect();
        assert_eq!(w, vec!["red", "green", "refactor", "don't", "stop", "v2.1"]);
    }

    #[test]
    fn compounds_split_at_underscores_dots_and_apostrophes() {
        let s: Vec<_> = split_compound("snake_case").collect();
        assert_eq!(s, vec!["snake", "case"]);
        let s: Vec<_> = split_compound("package.json").collect();
        assert_eq!(s, vec!["package", "json"]);
        let s: Vec<_> = split_compound("l'application").collect();
        assert_eq!(s, vec!["l", "application"]);
    }

    #[test]
    fn each_language_drops_its_own_stop_words() {
        let it = Analyzer::new("italian", &[]).unwrap();
        assert_eq!(
            it.terms("analisi della qualità dei dati di un dataset"),
            it.terms("analisi qualità dati dataset")
        );
        // English keeps its own curated list: `di` is a word there
        let en = Analyzer::new("english", &[]).unwrap();
        assert!(en.terms("di la del").len() == 3);
        // every stemming language has a list
        for (name, code) in LANGUAGES {
            assert!(stop_words::lookup(code).is_some(), "{name}");
        }
    }

    #[test]
    fn stop_words_include_defaults_and_config_extras() {
        let s = StopWords::new(&["Foo".to_string()]);
        assert!(s.contains("the"));
        assert!(s.contains("use"));
        assert!(s.contains("doesn"));
        assert!(!s.contains("against"));
        assert!(!s.contains("skill"));
        assert!(s.contains("foo"));
        assert!(!s.contains("test"));
        assert!(s.contains("a") && s.contains("to") && s.contains("t"));
        assert!(!s.contains("pr") && !s.contains("ci") && !s.contains("qa"));
    }

    #[test]
    fn default_stop_list_is_normalized_and_unique() {
        let mut seen = HashSet::new();
        for w in STOP_WORDS {
            assert_eq!(normalize(w), *w, "{w} is not normalized");
            assert!(seen.insert(w), "{w} twice");
        }
    }

    #[test]
    fn stemming_uses_the_language_and_only_its_script() {
        let en = Stem::for_language("english").unwrap();
        assert_eq!(en.stem("failing"), "fail");
        assert_eq!(en.stem("conflicts"), "conflict");
        assert_eq!(en.stem("тесты"), "тесты");
        let ru = Stem::for_language("ru").unwrap();
        assert_eq!(ru.stem("тесты"), "тест");
        let none = Stem::for_language("none").unwrap();
        assert_eq!(none.stem("failing"), "failing");
        assert!(Stem::for_language("klingon").is_none());
    }

    #[test]
    fn english_stems_inflections_only() {
        let en = Stem::for_language("english").unwrap();
        assert_eq!(en.stem("adding"), "add");
        assert_eq!(en.stem("developers"), "developer");
        assert_eq!(en.stem("development"), "development");
    }

    #[test]
    fn folding_removes_latin_diacritics_only() {
        assert_eq!(fold("résumé"), "resume");
        assert_eq!(fold("naïve"), "naive");
        assert_eq!(fold("й"), "й");
        assert!(matches!(fold("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn bigrams_overlap_and_a_lone_character_stands_alone() {
        let mut v = Vec::new();
        bigrams("测试驱动", |g| v.push(g.to_string()));
        assert_eq!(v, vec!["测试", "试驱", "驱动"]);
        v.clear();
        bigrams("测", |g| v.push(g.to_string()));
        assert_eq!(v, vec!["测"]);
    }

    #[test]
    fn pipeline_runs_every_step_in_order() {
        let a = english();
        assert_eq!(
            a.terms("Use this when writing a FAILING test_case before bugs"),
            vec!["when", "write", "fail", "test", "case", "befor", "bug"]
        );
        // two-letter words are kept: only the stop list drops words
        assert_eq!(
            a.terms("测试驱动 CI/CD"),
            vec!["测试", "试驱", "驱动", "ci", "cd"]
        );
        // accents: composed, decomposed and none all meet
        let t = a.terms("Résumé resume Re\u{301}sume\u{301}");
        assert_eq!(t, ["resum"].repeat(3));
    }

    #[test]
    fn analyze_reports_the_word_behind_each_term() {
        let a = english();
        let mut pairs = Vec::new();
        a.analyze("Refactoring modules", |t, w| {
            pairs.push((t.to_string(), w.to_string()))
        });
        assert_eq!(
            pairs,
            [("refactor", "refactoring"), ("modul", "modules")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
    }
}
