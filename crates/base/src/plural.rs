//! A count and its noun, in the singular for one: "1 error", "3 errors",
//! never "1 error(s)" or "1 warnings".

/// `word` for one, `word` + `s` otherwise ("skill", "tool call", "run").
pub fn word(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// `n` and its noun: "1 error", "0 errors", "3 tool calls".
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {}", word(n, noun))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(count(1, "error"), "1 error");
        assert_eq!(count(0, "error"), "0 errors");
        assert_eq!(count(2, "tool call"), "2 tool calls");
    }
}
