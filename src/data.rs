//! Lesson data on demand: the page's wasm carries no lesson data and no wording.
//!
//! The page is built without the `bundled` feature (index.html), so the engine's
//! built-in scenarios, the tours, the exporter's Java fragments, the drill's
//! questions and the wording files (`assets/i18n/*.json`, `assets/glossary.json`)
//! are not compiled in. `scripts/data-manifest.cjs` writes them next to the wasm
//! under content-hashed names (a new release never meets a stale cached file) and
//! puts a [`Manifest`] into index.html: every file's versioned URL, every lesson's
//! title (the lesson menu lists them all at once) and, inline, the first lesson's
//! files and the wording the first screen reads (`ui.json`, `narration.json`,
//! `lessons.json`, `flink.json`, `extras.json`), so the first render waits for no
//! fetch and shows no missing text. The rest is fetched when a lesson opens
//! ([`open_lesson`]: its scenario and tour, and its pair partners' scenarios for
//! the twin view and the charts), when the drill opens (its questions with their
//! wording, `drill.json`) or the glossary, prefetched in idle time after the first
//! render ([`prefetch`]), and the Java with the exporter's wording when the Flink
//! code tab first opens ([`java_files`]). Each file goes to the table that serves it
//! ([`engine::runner::provide`], [`crate::lessons::tour::provide`],
//! [`engine::export::flink::provide_fragment`],
//! [`engine::export::flink::provide_wording`], [`provide_wording`]), so
//! everything else reads it as if it were compiled in.
//!
//! A failed fetch (offline without the cache, HTTP 404, a malformed file) becomes
//! a message naming the file, shown on the stage; nothing panics. With the
//! `bundled` feature (the native and browser tests) every file is already
//! available and nothing is fetched.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use engine::scenario::{Localized, Scenario};
use engine::ScenarioError;
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::Callback;

use crate::lessons::{pair, tour};
use crate::playback::Action;

/// The id of the manifest's `<script type="application/json">` in index.html.
pub const MANIFEST_ID: &str = "lab-data";

/// Why lesson data could not be had. Each names the file (or the manifest)
/// and, from a table that refuses a file, the field.
#[derive(Clone, Debug, PartialEq)]
pub enum DataError {
    /// index.html has no manifest (a build without `scripts/data-manifest.cjs`).
    NoManifest,
    /// The manifest is not one: the parser's message, naming the field.
    BadManifest(String),
    /// A file the manifest does not list.
    NotInManifest(String),
    /// A file of no kind the page serves.
    NotADataFile(String),
    /// A scenario file that is not a valid scenario.
    Scenario {
        /// The file.
        file: String,
        /// The engine's errors, naming the field.
        error: ScenarioError,
    },
    /// A wording file refused by its table.
    Wording(crate::i18n::WordingError),
    /// A file the table that serves it refused: its message, which names the file.
    Refused(String),
    /// No browser window to fetch with.
    NoWindow,
    /// A fetch that gave no text: why (no answer, not HTTP, a status, an
    /// unreadable body).
    Fetch {
        /// The URL fetched.
        url: String,
        /// What went wrong.
        why: String,
    },
    /// A fetched file refused when supplied.
    Fetched {
        /// The URL it came from.
        url: String,
        /// Why it was refused.
        error: Box<DataError>,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::NoManifest => write!(
                f,
                "index.html has no <script id=\"{MANIFEST_ID}\"> (built without scripts/data-manifest.cjs?)"
            ),
            DataError::BadManifest(e) => {
                write!(f, "index.html, <script id=\"{MANIFEST_ID}\">: {e}")
            }
            DataError::NotInManifest(file) => {
                write!(f, "{file}: not in this build's data manifest")
            }
            DataError::NotADataFile(file) => write!(f, "{file}: not a lesson data file"),
            DataError::Scenario { file, error } => write!(f, "{file}: {error}"),
            DataError::Wording(e) => write!(f, "{e}"),
            DataError::Refused(message) => f.write_str(message),
            DataError::NoWindow => f.write_str("no window"),
            DataError::Fetch { url, why } => write!(f, "{url}: {why}"),
            DataError::Fetched { url, error } => write!(f, "{url}: {error}"),
        }
    }
}

impl std::error::Error for DataError {}

/// What index.html says about the build's data files.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Each file (`scenarios/pv-count.json`, `tours/pv-count.json`,
    /// `java/Lab.java`) → its versioned URL, relative to the page.
    pub files: BTreeMap<String, String>,
    /// Each lesson's title (a lesson without one is listed by its name).
    #[serde(default)]
    pub titles: BTreeMap<String, Localized>,
    /// Files whose text is in index.html itself (the first lesson's).
    #[serde(default)]
    pub inline: BTreeMap<String, String>,
}

impl Manifest {
    /// Parses the manifest; the error names it and the field.
    pub fn parse(json: &str) -> Result<Manifest, DataError> {
        serde_json::from_str(json).map_err(|e| DataError::BadManifest(e.to_string()))
    }

    /// The versioned URL of `file`.
    pub fn url(&self, file: &str) -> Result<&str, DataError> {
        self.files
            .get(file)
            .map(String::as_str)
            .ok_or_else(|| DataError::NotInManifest(file.to_string()))
    }
}

/// The scenario file of the built-in `lesson`.
pub fn scenario_file(lesson: &str) -> String {
    format!("scenarios/{lesson}.json")
}

/// The files `lesson` needs before it opens: its scenario, its tour (if it has
/// one) and its pair partners' scenarios (the twin view and the charts run them).
pub fn lesson_files(lesson: &str) -> Vec<String> {
    let mut files = vec![scenario_file(lesson)];
    if tour::NAMES.contains(&lesson) {
        files.push(format!("tours/{lesson}.json"));
    }
    files.extend(pair::partners(lesson).into_iter().map(scenario_file));
    files
}

/// Every lesson's files (what [`prefetch`] fetches).
pub fn all_lesson_files() -> Vec<String> {
    let scenarios = engine::runner::NAMES.iter().map(|n| scenario_file(n));
    let tours = tour::NAMES.iter().map(|n| format!("tours/{n}.json"));
    // The drill's questions too, so the drill works offline once prefetched,
    // and the wording not inlined in index.html (the inlined is already here).
    let drill = std::iter::once(crate::drill::FILE.to_string());
    let wording = wording_files().into_iter().map(str::to_string);
    scenarios.chain(tours).chain(drill).chain(wording).collect()
}

/// `files` with what each needs beside it: the drill's questions come with the
/// drill's wording.
fn with_companions(mut files: Vec<String>) -> Vec<String> {
    let words = crate::drill::WORDS.file();
    if files.iter().any(|f| f == crate::drill::FILE) && !files.iter().any(|f| f == words) {
        files.push(words.to_string());
    }
    files
}

/// The exporter's files (the Flink code tab): its Java fragments and its wording.
pub fn java_files() -> Vec<String> {
    engine::export::flink::FRAGMENTS
        .iter()
        .map(|n| format!("java/{n}.java"))
        .chain([engine::export::flink::WORDING_FILE.to_string()])
        .collect()
}

/// The kind of a data file and its name inside that kind.
fn split(file: &str) -> Option<(&str, &str)> {
    let (kind, rest) = file.split_once('/')?;
    let name = match kind {
        "scenarios" | "tours" | "drill" | "i18n" => rest.strip_suffix(".json")?,
        "java" => rest.strip_suffix(".java")?,
        _ => return None,
    };
    Some((kind, name))
}

/// Whether `file` is available: compiled in, or already supplied.
pub fn available(file: &str) -> bool {
    match split(file) {
        Some(("scenarios", name)) => engine::runner::builtin(name).is_some(),
        Some(("tours", name)) => tour::available(name),
        Some(("java", name)) => !engine::export::flink::missing_fragments().contains(&name),
        Some(("drill", "questions")) => crate::drill::available(),
        Some(("i18n", "export")) => engine::export::flink::wording_available(),
        Some(("i18n", _)) => wording_available(file),
        _ => false,
    }
}

/// Hands the text of `file` to the table that serves it, after checking it as
/// the tests check the compiled-in files. The error names the file and the field.
pub fn supply(file: &str, text: String) -> Result<(), DataError> {
    let refused = |e: &dyn fmt::Display| DataError::Refused(e.to_string());
    match split(file) {
        Some(("scenarios", name)) => {
            Scenario::from_json(&text).map_err(|error| DataError::Scenario {
                file: file.to_string(),
                error,
            })?;
            engine::runner::provide(name, text).map_err(|e| refused(&e))
        }
        Some(("tours", name)) => tour::provide(name, &text).map_err(|e| refused(&e)),
        Some(("java", name)) => {
            engine::export::flink::provide_fragment(name, text).map_err(|e| refused(&e))
        }
        Some(("drill", "questions")) => crate::drill::provide(&text).map_err(DataError::Wording),
        Some(("i18n", "export")) => {
            engine::export::flink::provide_wording(&text).map_err(|e| refused(&e))
        }
        Some(("i18n", _)) => provide_wording(file, &text).map_err(DataError::Wording),
        _ => Err(DataError::NotADataFile(file.to_string())),
    }
}

/// The message the stage shows for a failed load: which file and why.
pub fn failure(detail: impl fmt::Display) -> String {
    format!("课程数据加载失败 · Could not load the lesson data: {detail}")
}

thread_local! {
    static MANIFEST: RefCell<Option<Rc<Manifest>>> = const { RefCell::new(None) };
    static BOOT_ERROR: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The manifest in index.html, read once.
pub fn manifest() -> Result<Rc<Manifest>, DataError> {
    if let Some(m) = MANIFEST.with(|m| m.borrow().clone()) {
        return Ok(m);
    }
    let text = gloo::utils::document()
        .get_element_by_id(MANIFEST_ID)
        .and_then(|e| e.text_content())
        .ok_or(DataError::NoManifest)?;
    let m = Rc::new(Manifest::parse(&text)?);
    MANIFEST.with(|cell| *cell.borrow_mut() = Some(m.clone()));
    Ok(m)
}

/// Every lesson with its title, in lesson order: the lesson menu. Compiled-in
/// scenarios give their own; otherwise the manifest's.
pub fn lesson_titles() -> Rc<Vec<(&'static str, Option<Localized>)>> {
    thread_local! {
        static TITLES: Rc<Vec<(&'static str, Option<Localized>)>> = Rc::new({
            let titles = if cfg!(feature = "bundled") {
                None
            } else {
                manifest().ok().map(|m| m.titles.clone())
            };
            engine::runner::NAMES
                .iter()
                .map(|name| {
                    let title = match &titles {
                        Some(t) => t.get(*name).cloned(),
                        None => engine::runner::builtin(name)
                            .and_then(|j| Scenario::from_json(j).ok())
                            .and_then(|s| s.title),
                    };
                    (*name, title)
                })
                .collect()
        });
    }
    TITLES.with(Rc::clone)
}

/// The lesson the page opens with: `?scenario=`, a share link's lesson, or the
/// default.
fn first_lesson() -> String {
    let shared = crate::share::location_recipe()
        .and_then(Result::ok)
        .and_then(|r| r.scenario.get("name")?.as_str().map(str::to_string));
    crate::document::query_param("scenario")
        .or(shared)
        .unwrap_or_else(|| crate::playback::DEFAULT_SCENARIO.to_string())
}

/// Before the first render: supplies the files inlined in index.html and calls
/// `render` at once if the first lesson has what it needs (the usual case),
/// otherwise after fetching the rest. A failure is kept for [`take_boot_error`]
/// and the page renders anyway. Then prefetches the other lessons in idle time.
pub fn boot(render: impl FnOnce() + 'static) {
    if cfg!(feature = "bundled") {
        return render();
    }
    let mut error = None;
    match manifest() {
        Ok(m) => {
            for (file, text) in &m.inline {
                if let Err(e) = supply(file, text.clone()) {
                    error.get_or_insert(e);
                }
            }
        }
        Err(e) => error = Some(e),
    }
    let first = first_lesson();
    let files = lesson_files(&first);
    let keep = |e: Option<DataError>| {
        if let Some(e) = e {
            BOOT_ERROR.with(|b| *b.borrow_mut() = Some(failure(&e)));
        }
    };
    if error.is_some() || files.iter().all(|f| available(f)) {
        keep(error);
        render();
        prefetch();
    } else {
        wasm_bindgen_futures::spawn_local(async move {
            keep(ensure(files).await.err());
            render();
            prefetch();
        });
    }
}

/// Why the data for the first lesson could not be loaded, once.
pub fn take_boot_error() -> Option<String> {
    BOOT_ERROR.with(|b| b.borrow_mut().take())
}

/// Fetches every lesson's files when the browser is idle (after the first
/// render), so a lesson opened later starts at once and the class can go offline.
/// Only where a service worker keeps them (a secure context: https, or the
/// lecturer's own 127.0.0.1): a phone on the classroom server's plain-http LAN
/// address has no offline cache, and its ~210 KiB would share the room's link
/// with the phones still loading the page (`scripts/join-storm.sh`); it fetches
/// a lesson's files when the lesson opens.
pub fn prefetch() {
    let Some(window) = web_sys::window() else {
        return;
    };
    if !window.is_secure_context() {
        return;
    }
    let run = wasm_bindgen::closure::Closure::once_into_js(|| {
        wasm_bindgen_futures::spawn_local(async {
            if let Err(e) = ensure(all_lesson_files()).await {
                web_sys::console::warn_1(&failure(&e).into());
            }
        })
    });
    let f: &js_sys::Function = run.unchecked_ref();
    // requestIdleCallback where there is one (not Safari): a timeout otherwise.
    let idle = js_sys::Reflect::get(&window, &"requestIdleCallback".into())
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Function>().ok());
    let _ = match idle {
        Some(request) => request.call1(&window, f).map(|_| ()),
        None => window
            .set_timeout_with_callback_and_timeout_and_arguments_0(f, 500)
            .map(|_| ()),
    };
}

/// Opens the built-in `lesson`: at once when its files are here (always with the
/// `bundled` feature), otherwise after fetching them; a failure is shown on the
/// stage instead, naming the file.
pub fn open_lesson(lesson: String, dispatch: Callback<Action>) {
    let files = lesson_files(&lesson);
    if files.iter().all(|f| available(f)) {
        return dispatch.emit(Action::LoadScenario(lesson));
    }
    wasm_bindgen_futures::spawn_local(async move {
        dispatch.emit(match ensure(files).await {
            Ok(()) => Action::LoadScenario(lesson),
            Err(e) => Action::Fail(failure(&e)),
        })
    });
}

/// Makes every file of `files` available, fetching those that are not (all at
/// once); the error names the first file that failed and why.
pub async fn ensure(files: Vec<String>) -> Result<(), DataError> {
    let missing: Vec<String> = with_companions(files)
        .into_iter()
        .filter(|f| !available(f))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let manifest = manifest()?;
    let window = web_sys::window().ok_or(DataError::NoWindow)?;
    // Start every request before awaiting any.
    let mut started = Vec::new();
    for file in &missing {
        let url = manifest.url(file)?.to_string();
        let promise = window.fetch_with_str(&url);
        started.push((file, url, promise));
    }
    let mut first_error = None;
    for (file, url, promise) in started {
        let result = match receive(&url, promise).await {
            Ok(text) => supply(file, text).map_err(|e| DataError::Fetched {
                url: url.clone(),
                error: Box::new(e),
            }),
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// The body of a fetch of `url`, or why there is none.
async fn receive(url: &str, promise: js_sys::Promise) -> Result<String, DataError> {
    let fetch = |why: String| DataError::Fetch {
        url: url.to_string(),
        why,
    };
    let response = JsFuture::from(promise)
        .await
        .map_err(|_| fetch("no answer (offline, and not in the offline cache?)".into()))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| fetch("not an HTTP response".into()))?;
    if !response.ok() {
        return Err(fetch(format!("HTTP {}", response.status())));
    }
    let text = response
        .text()
        .map_err(|_| fetch("unreadable body".into()))?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| fetch("unreadable body".into()))
}

// ── The page's wording files (the tables live with their readers) ──────────

/// A wording file's entry points: its name in the data manifest, [`crate::i18n::Book::provide`]
/// and [`crate::i18n::Book::available`].
type BookFns = (
    &'static str,
    fn(&str) -> Result<(), crate::i18n::WordingError>,
    fn() -> bool,
);

/// The page's wording files.
fn books() -> [BookFns; 10] {
    use crate::describe::NARRATION;
    use crate::drill::WORDS;
    use crate::i18n::extras::EXTRAS;
    use crate::i18n::flink::FLINK;
    use crate::i18n::UI;
    use crate::lessons::glossary::GLOSSARY;
    use crate::lessons::wording::LESSONS;
    use crate::presenter::notes::{LABELS, NOTES};
    use crate::presenter::plan::PLANS;
    [
        (UI.file(), |t| UI.provide(t), || UI.available()),
        (
            NARRATION.file(),
            |t| NARRATION.provide(t),
            || NARRATION.available(),
        ),
        (
            LESSONS.file(),
            |t| LESSONS.provide(t),
            || LESSONS.available(),
        ),
        (FLINK.file(), |t| FLINK.provide(t), || FLINK.available()),
        (EXTRAS.file(), |t| EXTRAS.provide(t), || EXTRAS.available()),
        (WORDS.file(), |t| WORDS.provide(t), || WORDS.available()),
        (
            GLOSSARY.file(),
            |t| GLOSSARY.provide(t),
            || GLOSSARY.available(),
        ),
        (LABELS.file(), |t| LABELS.provide(t), || LABELS.available()),
        (NOTES.file(), |t| NOTES.provide(t), || NOTES.available()),
        (PLANS.file(), |t| PLANS.provide(t), || PLANS.available()),
    ]
}

/// Every wording file the page reads, by its name in the data manifest
/// (`i18n/ui.json`; the glossary is `i18n/glossary.json`).
pub fn wording_files() -> Vec<&'static str> {
    books().iter().map(|b| b.0).collect()
}

/// Hands the text of the wording file `file` to its table, checked as the tests
/// check the compiled-in file.
pub fn provide_wording(file: &str, text: &str) -> Result<(), crate::i18n::WordingError> {
    let (_, provide, _) = books()
        .into_iter()
        .find(|b| b.0 == file)
        .ok_or_else(|| crate::i18n::WordingError::UnknownFile { file: file.into() })?;
    provide(text)
}

/// Whether the wording file `file` is here (compiled in, inlined or fetched).
pub fn wording_available(file: &str) -> bool {
    books().iter().any(|b| b.0 == file && (b.2)())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"{
        "files": {"scenarios/pv-count.json": "data/scenarios/pv-count.0123abcd.json"},
        "titles": {"pv-count": {"zh": "计数", "en": "Count"}},
        "inline": {}
    }"#;

    #[test]
    fn the_manifest_gives_each_file_its_versioned_url_and_names_a_missing_one() {
        let m = Manifest::parse(MANIFEST).unwrap();
        assert_eq!(
            m.url("scenarios/pv-count.json").unwrap(),
            "data/scenarios/pv-count.0123abcd.json"
        );
        assert_eq!(m.titles["pv-count"].en, "Count");
        let err = m.url("tours/nope.json").unwrap_err().to_string();
        assert!(err.contains("tours/nope.json"), "{err}");
    }

    #[test]
    fn a_malformed_manifest_is_refused_naming_it_and_the_field() {
        let err = Manifest::parse(r#"{"files": {}, "extra": 1}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("lab-data") && err.contains("extra"), "{err}");
        let err = Manifest::parse(r#"{"files": {"a": 1}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("lab-data"), "{err}");
    }

    #[test]
    fn a_lesson_needs_its_scenario_its_tour_and_its_partners_scenarios() {
        assert_eq!(
            lesson_files("odd-even-sum"),
            ["scenarios/odd-even-sum.json", "tours/odd-even-sum.json"]
        );
        assert_eq!(
            lesson_files("busy-network"),
            ["scenarios/busy-network.json"],
            "no tour, no partner"
        );
        let pair = lesson_files("checkpoint-config");
        assert!(pair.contains(&"scenarios/checkpoint-config-strict.json".to_string()));
        assert!(!pair.contains(&"tours/checkpoint-config-strict.json".to_string()));
    }

    #[test]
    fn every_file_a_lesson_or_the_exporter_needs_is_a_file_of_the_source_tree() {
        // What scripts/data-manifest.cjs puts in the manifest: the files of
        // these directories, and the wording files it lists (the glossary is
        // assets/glossary.json).
        let root = env!("CARGO_MANIFEST_DIR");
        let dirs = [
            ("scenarios", "crates/engine/scenarios"),
            ("tours", "assets/tours"),
            ("java", "crates/engine/src/export/java"),
            ("drill", "assets/drill"),
            ("i18n", "assets/i18n"),
        ];
        for file in all_lesson_files().into_iter().chain(java_files()) {
            let (kind, rest) = file.split_once('/').unwrap();
            let dir = dirs.iter().find(|(k, _)| *k == kind).unwrap().1;
            let path = match file.as_str() {
                "i18n/glossary.json" => format!("{root}/assets/glossary.json"),
                "i18n/export.json" => format!("{root}/crates/engine/src/export/flink/export.json"),
                "i18n/presenter.json" | "i18n/notes.json" | "i18n/plans.json" => {
                    format!("{root}/assets/presenter/{}", &rest)
                }
                _ => format!("{root}/{dir}/{rest}"),
            };
            assert!(std::path::Path::new(&path).is_file(), "{path}");
            assert!(available(&file), "{file} compiled in for the tests");
        }
        let manifest_script =
            std::fs::read_to_string(format!("{root}/scripts/data-manifest.cjs")).unwrap();
        for file in wording_files() {
            let name = file.strip_prefix("i18n/").unwrap();
            assert!(
                manifest_script.contains(&format!("'{name}'")),
                "scripts/data-manifest.cjs ships {file}"
            );
        }
        // The wording directory also holds the files only the tests and
        // scripts/hant.cjs read (terms, sources, the Traditional term list).
        for (kind, dir) in dirs.into_iter().filter(|(k, _)| *k != "i18n") {
            let n = std::fs::read_dir(format!("{root}/{dir}")).unwrap().count();
            let listed = all_lesson_files()
                .into_iter()
                .chain(java_files())
                .filter(|f| f.starts_with(&format!("{kind}/")))
                .count();
            assert_eq!(
                listed, n,
                "{dir}: every file is a built-in the page can ask for"
            );
        }
    }

    #[test]
    fn a_bad_file_is_refused_naming_it_and_the_field() {
        let err = supply("scenarios/pv-count.json", "{\"name\": 3}".into())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("scenarios/pv-count.json: "), "{err}");
        let err = supply("tours/pv-count.json", "[]".into())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("tours/pv-count.json: "), "{err}");
        // A wording file names itself and the key (or the parser's line).
        let err = supply(
            "i18n/ui.json",
            r#"{"app_titel": {"zh": "x", "en": "y"}}"#.into(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("ui.json") && err.contains("app_titel"),
            "{err}"
        );
        let err = supply("i18n/glossary.json", "{".into())
            .unwrap_err()
            .to_string();
        assert!(err.contains("glossary.json is not valid JSON"), "{err}");
        let err = supply("i18n/nope.json", "{}".into())
            .unwrap_err()
            .to_string();
        assert!(err.contains("i18n/nope.json"), "{err}");
        assert!(!available("i18n/nope.json"));
        let err = supply("fonts/x.woff", String::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("fonts/x.woff"), "{err}");
        assert!(!available("fonts/x.woff"));
    }
}
