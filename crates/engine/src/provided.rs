//! Data files the host supplies at run time instead of compiling them in: the
//! page's wasm is built without the `builtins` feature and fetches each lesson's
//! scenario (and the exporter's Java) when it is first needed, then hands the text
//! here so that [`crate::runner::builtin`] and the exporter find it as if it were
//! compiled in.
//!
//! One table per kind of file, per thread (the page has one). A text is kept for
//! the life of the program (leaked to `&'static str`, the type compiled-in data
//! has): each name is stored at most once and only names of a fixed list are
//! accepted, so the table is bounded by the size of the data.

use std::cell::RefCell;
use std::thread::LocalKey;

/// A table of supplied texts: `(name, text)`.
pub(crate) type Table = RefCell<Vec<(&'static str, &'static str)>>;

/// The text supplied for `name`, if any.
pub(crate) fn get(table: &'static LocalKey<Table>, name: &str) -> Option<&'static str> {
    table.with(|t| {
        t.borrow()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| *text)
    })
}

/// A file supplied under a name that is not one of the built-in files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFile {
    /// The name given.
    pub name: String,
}

impl std::fmt::Display for UnknownFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is not one of the built-in files", self.name)
    }
}

impl std::error::Error for UnknownFile {}

/// Stores `text` under `name`, one of `known`; a name already supplied keeps its
/// first text. Refuses a name not in `known`.
pub(crate) fn put(
    table: &'static LocalKey<Table>,
    known: &'static [&'static str],
    name: &str,
    text: String,
) -> Result<(), UnknownFile> {
    let Some(key) = known.iter().copied().find(|n| *n == name) else {
        return Err(UnknownFile {
            name: name.to_string(),
        });
    };
    table.with(|t| {
        let mut t = t.borrow_mut();
        if !t.iter().any(|(n, _)| *n == key) {
            t.push((key, Box::leak(text.into_boxed_str())));
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static T: Table = const { Table::new(Vec::new()) };
    }
    const KNOWN: &[&str] = &["a", "b"];

    #[test]
    fn a_known_name_is_stored_once_and_an_unknown_one_refused() {
        assert_eq!(get(&T, "a"), None);
        put(&T, KNOWN, "a", "first".into()).unwrap();
        put(&T, KNOWN, "a", "second".into()).unwrap();
        assert_eq!(get(&T, "a"), Some("first"));
        assert_eq!(get(&T, "b"), None);
        let err = put(&T, KNOWN, "c", "x".into()).unwrap_err();
        assert!(err.to_string().contains("\"c\""), "{err}");
        assert_eq!(get(&T, "c"), None);
    }
}
