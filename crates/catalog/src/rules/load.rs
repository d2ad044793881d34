//! Rules raised while a file is read and its frontmatter split and parsed.

use crate::rule;

rule! {
    /// ## What it does
    /// Refuses to parse a file larger than `[catalog] max-file-bytes`
    /// (default 1 MiB).
    ///
    /// ## Why is this bad?
    /// No client reads a megabyte of instructions; such a file is a mistake
    /// or hostile, and parsing it costs every run.
    pub static FILE_TOO_LARGE = ("SG001", "file-too-large", Error, "file exceeds the size limit and was not parsed");
}

rule! {
    /// ## What it does
    /// Reports a file or folder that could not be read (permissions, a
    /// broken or looping symlink, a name that is not UTF-8).
    pub static UNREADABLE = ("SG002", "unreadable", Error, "file or folder could not be read");
}

rule! {
    /// ## What it does
    /// Reports bytes that are not valid UTF-8. The rest of the file is
    /// checked with the bad bytes replaced by U+FFFD.
    ///
    /// ## Why is this bad?
    /// Clients read SKILL.md as UTF-8; invalid bytes corrupt the description.
    pub static INVALID_UTF8 = ("SG003", "invalid-utf8", Error, "file is not valid UTF-8");
}

rule! {
    /// ## What it does
    /// Reports a NUL byte in a text file.
    ///
    /// ## Why is this bad?
    /// Many tools treat a file with NUL bytes as binary and skip it.
    pub static NUL_BYTE = ("SG004", "nul-byte", Error, "file contains a NUL byte");
}

rule! {
    /// ## What it does
    /// Reports a UTF-8 byte order mark at the start of SKILL.md.
    ///
    /// ## Why is this bad?
    /// Front-matter splitters such as gray-matter look for `---` at byte 0:
    /// with a BOM they silently see no frontmatter, so the skill has no name
    /// or description in those clients.
    ///
    /// ## Example
    /// Save the file as "UTF-8" rather than "UTF-8 with BOM".
    ///
    /// ## Fix
    /// Safe fix (a SKILL.md): remove the three bytes, so the clients that
    /// missed the frontmatter read it, as skillsift already does.
    pub static BOM = ("SG005", "byte-order-mark", Warning, "file starts with a UTF-8 byte order mark");
}

rule! {
    /// ## What it does
    /// Notes CRLF line ends and warns about lone CR line ends or a mix.
    ///
    /// ## Why is this bad?
    /// CRLF is read correctly by skillsift and most clients, but produces
    /// noisy diffs; lone CR (classic Mac) breaks line-based tools.
    pub static LINE_ENDINGS = ("SG006", "line-endings", Notice, "file uses CRLF or CR line ends");
}

rule! {
    /// ## What it does
    /// Requires SKILL.md to open with a YAML frontmatter block: `---` on the
    /// first line, the YAML, then a line that is exactly `---`.
    ///
    /// ## Example
    /// ```markdown
    /// ---
    /// name: pdf-forms
    /// description: Fill PDF forms. Use when the user asks to fill a form.
    /// ---
    /// ```
    pub static MISSING_FRONTMATTER = ("SG010", "missing-frontmatter", Error, "SKILL.md has no frontmatter block");
}

rule! {
    /// ## What it does
    /// Reports a frontmatter block that does not start at the first byte of
    /// the file (blank lines, spaces or text before `---`), or an opening
    /// line with text after `---`.
    ///
    /// ## Why is this bad?
    /// Clients only recognise frontmatter at byte 0: anything before it makes
    /// the block ordinary Markdown.
    pub static FRONTMATTER_NOT_AT_START = ("SG011", "frontmatter-not-at-start", Error, "frontmatter does not start at the first byte");
}

rule! {
    /// ## What it does
    /// Reports an opening `---` with no closing line that is exactly `---`.
    pub static UNCLOSED_FRONTMATTER = ("SG012", "unclosed-frontmatter", Error, "frontmatter block is never closed");
}

rule! {
    /// ## What it does
    /// Reports frontmatter that is not valid YAML, at the exact line and
    /// column in the file.
    ///
    /// ## Fix
    /// Safe fix, when the parser stops at an unquoted `: ` or at a quote
    /// that is never closed: the fix of SG111 (quote the value) or SG113
    /// (close the quote), which the same spot would get.
    pub static YAML_SYNTAX = ("SG013", "yaml-syntax", Error, "frontmatter is not valid YAML");
}

rule! {
    /// ## What it does
    /// Refuses frontmatter whose alias expansion exceeds 10,000 nodes or
    /// whose nesting is deeper than 64 levels.
    ///
    /// ## Why is this bad?
    /// A "billion laughs" block of nested aliases expands exponentially and
    /// can exhaust a client's memory.
    pub static YAML_LIMIT = ("SG014", "yaml-limit", Error, "frontmatter exceeds the YAML expansion or depth limit");
}

rule! {
    /// ## What it does
    /// Reports a key that appears twice in one mapping, naming both lines.
    ///
    /// ## Why is this bad?
    /// YAML forbids it; parsers disagree on which value wins (first, last,
    /// or an error), so clients see different skills.
    pub static DUPLICATE_KEY = ("SG015", "duplicate-key", Error, "frontmatter key appears twice");
}

rule! {
    /// ## What it does
    /// Requires the frontmatter to be a YAML mapping (`key: value` lines).
    pub static NOT_A_MAPPING = ("SG016", "frontmatter-not-mapping", Error, "frontmatter is not a mapping");
}

rule! {
    /// ## What it does
    /// Reports a SKILL.md whose whole content is one path, such as
    /// `../../skills/pdf-forms/SKILL.md`: a symlink that git checked out as
    /// a plain file holding the link's target (`core.symlinks=false`, the
    /// default of Git for Windows and of some CI checkouts). It replaces
    /// "no frontmatter" (SG010) for such a file, and says whether the
    /// target exists in the catalog.
    ///
    /// ## Why is this bad?
    /// Clients read the path as the skill's text: the skill has no name
    /// and no description, so it is never listed, and every check of it
    /// passes or fails for the wrong reason.
    ///
    /// ## Example
    /// `git config core.symlinks true` (on Windows: enable Developer Mode),
    /// then `git checkout -- .claude/skills/` to get the links back; or
    /// replace the file with a copy of its target.
    pub static SYMLINK_AS_FILE = ("SG017", "symlink-as-file", Error, "SKILL.md holds only a path: a symlink checked out as a file");
}
