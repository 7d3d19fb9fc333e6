//! Languages and the page's wording.
//!
//! The words themselves live in `assets/i18n/ui.json`, so a teacher can correct a
//! sentence without reading Rust. This module knows only the *keys* ([`Msg`]) and
//! how to choose a [`Lang`]:
//! `?lang=` in the URL first, then the browser's language, then English.
//! Traditional Chinese (`zh-Hant`) is generated from the Simplified text by
//! `scripts/hant.cjs`; a text without it falls back to Simplified ([`Lang::pick`]).
//!
//! Everything here is pure (no `web_sys`), so it is unit-tested natively; the
//! document side (reading the URL, writing `<html lang>`) is in [`crate::document`].
//! [`terms`] holds the canonical Chinese terms and the check that every Chinese
//! string uses them. A part of the page with many words of its own can have its
//! own file and key enum through the same [`messages!`] macro ([`flink`]:
//! `assets/i18n/flink.json`, the Flink code tab and the real statistics).
//!
//! The wording files are data, not code in the page's wasm: each is a [`Book`],
//! filled by [`provide`] from what `src/data.rs` finds inlined in index.html
//! (the files the first screen reads: `ui.json`, `narration.json`,
//! `lessons.json`, `flink.json`, `extras.json`) or fetches when first needed
//! (`drill.json`, `glossary.json`). Native code and the browser tests (the
//! `bundled` feature) read them compiled in with `include_str!`, so every check
//! of the files runs on the files themselves. A file that fails to parse is
//! refused with a [`WordingError`] naming the file and the key.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde::Deserialize;

pub mod extras;
pub mod terms;

/// A language the interface is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// Simplified Chinese.
    Zh,
    /// Traditional Chinese as written in Taiwan (Hong Kong gets the same text).
    ZhHant,
    /// English; also the fallback for a browser that prefers neither language, as
    /// the more widely read second language.
    #[default]
    En,
}

impl Lang {
    /// Every language, in the order the toggle shows them.
    pub const ALL: [Lang; 3] = [Lang::Zh, Lang::ZhHant, Lang::En];

    /// The value of `?lang=` that selects this language.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::ZhHant => "zh-Hant",
            Lang::En => "en",
        }
    }

    /// Whether the language is written in Chinese characters (full-width
    /// punctuation, no spaces between sentences).
    pub const fn is_chinese(self) -> bool {
        matches!(self, Lang::Zh | Lang::ZhHant)
    }

    /// The BCP 47 tag for `<html lang>` and `lang` attributes (it picks the font).
    pub const fn html_lang(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::ZhHant => "zh-Hant",
            Lang::En => "en",
        }
    }

    /// The language's name in itself, as a language switch shows it.
    pub const fn native_name(self) -> &'static str {
        match self {
            Lang::Zh => "简体中文",
            Lang::ZhHant => "繁體中文",
            Lang::En => "English",
        }
    }

    /// The language switch's short label: one character for each Chinese script,
    /// so three buttons fit the top bar at 1024×768.
    pub const fn short_name(self) -> &'static str {
        match self {
            Lang::Zh => "简",
            Lang::ZhHant => "繁",
            Lang::En => "EN",
        }
    }

    /// Reads a language tag such as `zh`, `zh-CN`, `zh-TW`, `zh_Hant_HK`, `en-GB`
    /// or `EN`. Chinese is Traditional when the tag names the script `Hant`, or,
    /// without a script, the region TW, HK or MO (where Traditional is written);
    /// any other Chinese tag (`zh`, `zh-CN`, `zh-SG`, `zh-Hans-TW`) is Simplified.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let mut subtags = tag.trim().split(['-', '_']);
        let primary = subtags.next().unwrap_or("");
        if primary.eq_ignore_ascii_case("zh") {
            for sub in subtags {
                if sub.eq_ignore_ascii_case("hant") {
                    return Some(Lang::ZhHant);
                }
                if sub.eq_ignore_ascii_case("hans") {
                    return Some(Lang::Zh);
                }
                if ["tw", "hk", "mo"]
                    .iter()
                    .any(|r| sub.eq_ignore_ascii_case(r))
                {
                    return Some(Lang::ZhHant);
                }
            }
            Some(Lang::Zh)
        } else if primary.eq_ignore_ascii_case("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// Looks up `msg` (a [`Msg`], or a key of another wording file) in this language.
    pub fn t(self, msg: impl Wording) -> &'static str {
        let entry = msg.entry();
        self.pick(&entry.zh, entry.zh_hant.as_deref(), &entry.en)
    }

    /// Chooses a text's version in this language from the versions a wording
    /// file holds. Traditional falls back to Simplified when it is missing or
    /// blank (a file edited without running `scripts/hant.cjs`), and Chinese to
    /// English when that is blank too: the page never shows an empty text.
    pub fn pick<'a>(self, zh: &'a str, zh_hant: Option<&'a str>, en: &'a str) -> &'a str {
        let present = |s: &&str| !s.trim().is_empty();
        match self {
            Lang::En => en,
            Lang::Zh => Some(zh).filter(present).unwrap_or(en),
            Lang::ZhHant => zh_hant
                .filter(present)
                .or(Some(zh).filter(present))
                .unwrap_or(en),
        }
    }

    /// [`Lang::pick`] over a scenario file's [`Localized`] text.
    pub fn loc(self, text: &engine::scenario::Localized) -> &str {
        self.pick(&text.zh, text.zh_hant.as_deref(), &text.en)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The language that a URL's query string asks for: the first `lang=` parameter
/// that names a known language. Accepts the string with or without its `?`.
///
/// `?lang=en` → English; `?x=1&lang=zh-CN` → Chinese; `?lang=fr` → `None`.
pub fn lang_from_query(query: &str) -> Option<Lang> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(key, _)| *key == "lang")
        .find_map(|(_, value)| Lang::from_tag(value))
}

/// Chooses the interface language: `?lang=` in `query` wins, then the first of the
/// browser's preferred languages that we speak, then [`Lang::default`].
pub fn detect<'a>(query: &str, browser_languages: impl IntoIterator<Item = &'a str>) -> Lang {
    lang_from_query(query)
        .or_else(|| browser_languages.into_iter().find_map(Lang::from_tag))
        .unwrap_or_default()
}

/// A key of a wording file: [`Lang::t`] looks it up.
pub trait Wording: Copy {
    /// The key's text in every language.
    fn entry(self) -> &'static Entry;
}

/// The text of a wording file where it is compiled in (native code and the
/// `bundled` feature), `None` in the page's wasm, which is given the file at run
/// time ([`provide`]). `compiled_in!(include_str!(…))`: the `include_str!` is
/// not even expanded when the text is not compiled in.
macro_rules! compiled_in {
    ($text:expr) => {{
        #[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
        let text: Option<&'static str> = Some($text);
        #[cfg(not(any(feature = "bundled", not(target_arch = "wasm32"))))]
        let text: Option<&'static str> = None;
        text
    }};
}
pub(crate) use compiled_in;

/// Declares a key enum with the JSON key of each message, so the list of keys
/// exists once: a key missing from (or unknown to) its file fails [`parse_entries`].
/// `messages! { Name in "file.json" = BOOK, include_str!(…); Variant = "key", … }`,
/// where `BOOK` is the file's [`Book`].
macro_rules! messages {
    ($name:ident in $file:literal = $book:path, $json:expr; $($(#[$doc:meta])* $variant:ident = $key:literal,)*) => {
        #[doc = concat!("A piece of interface wording; its text in each language is in `assets/i18n/", $file, "`.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$doc])* $variant,)*
        }

        impl $name {
            /// Every message, in declaration order (the order of the lookup table).
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
            /// The wording file's name.
            pub const FILE: &'static str = $file;
            /// The wording file, compiled in (native code and the tests; the
            /// page is given it at run time).
            #[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
            pub const JSON: &'static str = $json;

            #[doc = concat!("The message's key in `", $file, "`.")]
            pub const fn key(self) -> &'static str {
                match self {
                    $($name::$variant => $key,)*
                }
            }

            /// Parses a wording file for these keys into a table indexed by `self as usize`.
            pub fn parse(json: &str) -> Result<Vec<$crate::i18n::Entry>, $crate::i18n::WordingError> {
                let keys: Vec<&str> = Self::ALL.iter().map(|m| m.key()).collect();
                $crate::i18n::parse_entries(json, Self::FILE, &keys)
            }
        }

        impl $crate::i18n::Wording for $name {
            fn entry(self) -> &'static $crate::i18n::Entry {
                $book
                    .get()
                    .and_then(|table| table.get(self as usize))
                    .unwrap_or(&$crate::i18n::NOT_YET)
            }
        }
    };
}

/// What a message reads before its file is here (a file the page fetches when
/// first needed, or one that failed to load, which the stage reports by name).
pub static NOT_YET: Entry = Entry {
    zh: String::new(),
    zh_hant: None,
    en: String::new(),
};

/// Why a wording file was refused. Every message names the file, and the key or
/// field where there is one, for the teacher who edited it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WordingError {
    /// Not JSON at all.
    Syntax {
        /// The file (`ui.json`).
        file: &'static str,
        /// The parser's message (line and column).
        detail: String,
    },
    /// JSON, but not of the file's shape (a missing or unknown field).
    Shape {
        /// The file.
        file: &'static str,
        /// The parser's message.
        detail: String,
    },
    /// A key the code does not know (a typo?).
    UnknownKey {
        /// The file.
        file: &'static str,
        /// The key.
        key: String,
    },
    /// A key the code needs that the file lacks.
    MissingKey {
        /// The file.
        file: &'static str,
        /// The key.
        key: String,
    },
    /// An entry whose Chinese or English text is blank.
    EmptyTranslation {
        /// The file.
        file: &'static str,
        /// The key.
        key: String,
    },
    /// An entry that is not what the file expects.
    BadEntry {
        /// The file.
        file: &'static str,
        /// The key, or the field (`terms[3].explain`, `questions[2].moment.lesson`).
        key: String,
        /// What is wrong with it.
        detail: String,
    },
    /// A name that is not one of the page's wording files.
    UnknownFile {
        /// The name asked for.
        file: String,
    },
}

impl WordingError {
    /// A serde_json error while reading `file`: [`WordingError::Syntax`] or
    /// [`WordingError::Shape`].
    pub fn json(file: &'static str, e: &serde_json::Error) -> WordingError {
        let detail = e.to_string();
        match e.classify() {
            serde_json::error::Category::Data => WordingError::Shape { file, detail },
            _ => WordingError::Syntax { file, detail },
        }
    }

    /// [`WordingError::BadEntry`].
    pub fn entry(file: &'static str, key: impl Into<String>, detail: impl fmt::Display) -> Self {
        WordingError::BadEntry {
            file,
            key: key.into(),
            detail: detail.to_string(),
        }
    }
}

impl fmt::Display for WordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WordingError::Syntax { file, detail } => {
                write!(f, "{file} is not valid JSON: {detail}")
            }
            WordingError::Shape { file, detail } => write!(f, "{file}: {detail}"),
            WordingError::UnknownKey { file, key } => {
                write!(f, "{file}: unknown key \"{key}\" (a typo?)")
            }
            WordingError::MissingKey { file, key } => write!(f, "{file}: missing key \"{key}\""),
            WordingError::EmptyTranslation { file, key } => {
                write!(f, "{file}: \"{key}\" has an empty translation")
            }
            WordingError::BadEntry { file, key, detail } => write!(f, "{file}: {key}: {detail}"),
            WordingError::UnknownFile { file } => write!(f, "{file}: not a wording file"),
        }
    }
}

impl std::error::Error for WordingError {}

/// One wording file: its name, its text where compiled in, and its table, parsed
/// once — from the compiled-in text, or from the text [`provide`] hands it.
pub struct Book<T: 'static> {
    file: &'static str,
    compiled_in: Option<&'static str>,
    parse: fn(&str) -> Result<T, WordingError>,
    table: OnceLock<T>,
}

impl<T: Send + Sync> Book<T> {
    /// A wording file `file` (its name under `assets/`, as the data manifest
    /// names it: `i18n/ui.json`), read with `parse`.
    pub const fn new(
        file: &'static str,
        compiled_in: Option<&'static str>,
        parse: fn(&str) -> Result<T, WordingError>,
    ) -> Self {
        Book {
            file,
            compiled_in,
            parse,
            table: OnceLock::new(),
        }
    }

    /// The file's name in the data manifest.
    pub const fn file(&self) -> &'static str {
        self.file
    }

    /// The table, if the file is here. A compiled-in file that does not parse
    /// (which its test rules out) reads as absent, never as a panic.
    pub fn get(&self) -> Option<&T> {
        if let Some(t) = self.table.get() {
            return Some(t);
        }
        let parsed = (self.parse)(self.compiled_in?).ok()?;
        Some(self.table.get_or_init(|| parsed))
    }

    /// Whether the file is here (compiled in, or provided).
    pub fn available(&self) -> bool {
        self.compiled_in.is_some() || self.table.get().is_some()
    }

    /// Parses `text` as this file and keeps it (the first text kept wins: a
    /// build's file never changes under a running page).
    pub fn provide(&self, text: &str) -> Result<(), WordingError> {
        let t = (self.parse)(text)?;
        let _ = self.table.set(t);
        Ok(())
    }
}

pub mod flink;

messages! {
    Msg in "ui.json" = UI, include_str!("../assets/i18n/ui.json");
    /// The browser tab's title.
    DocumentTitle = "document_title",
    /// The page heading, after the `checkpoint-lab` brand.
    AppTitle = "app_title",
    /// One line under the heading: what the lab shows.
    Tagline = "tagline",
    /// Accessible name of the language switch.
    LangGroupLabel = "lang_group_label",
    /// Said of the language button that is already selected.
    LangIsCurrent = "lang_is_current",
    /// Said of the 简 button when another language is selected.
    LangSwitchToZh = "lang_switch_to_zh",
    /// Said of the 繁 button when another language is selected.
    LangSwitchToZhHant = "lang_switch_to_zh_hant",
    /// Said of the English button when Chinese is selected.
    LangSwitchToEn = "lang_switch_to_en",
    ToolbarLabel = "toolbar_label",
    ScenarioLabel = "scenario_label",
    ScenarioNone = "scenario_none",
    StepBack = "step_back",
    Play = "play",
    StepForward = "step_forward",
    SpeedLabel = "speed_label",
    TimelineLabel = "timeline_label",
    /// Tooltip of the transport controls before a scenario is loaded.
    ControlsWaiting = "controls_waiting",
    StageLabel = "stage_label",
    StageEmptyTitle = "stage_empty_title",
    StageEmptyHint = "stage_empty_hint",
    LegendLabel = "legend_label",
    LegendRecord = "legend_record",
    LegendEpoch = "legend_epoch",
    LegendBarrier = "legend_barrier",
    LegendBlocked = "legend_blocked",
    LegendPersisted = "legend_persisted",
    /// A record read again after a restore (↺).
    LegendReplayed = "legend_replayed",
    /// A completed unaligned checkpoint's persisted in-flight records (`{n}`).
    StorageChannelState = "storage_channel_state",
    LegendPreCommitted = "legend_pre_committed",
    LegendCommitted = "legend_committed",
    LegendAborted = "legend_aborted",
    LegendFailure = "legend_failure",
    PanelLabel = "panel_label",
    TabCoordinator = "tab_coordinator",
    TabStorage = "tab_storage",
    TabSink = "tab_sink",
    TabNarration = "tab_narration",
    CoordinatorHeading = "coordinator_heading",
    CoordinatorEmpty = "coordinator_empty",
    StorageHeading = "storage_heading",
    StorageEmpty = "storage_empty",
    SinkHeading = "sink_heading",
    SinkEmpty = "sink_empty",
    NarrationHeading = "narration_heading",
    NarrationEmpty = "narration_empty",
    Pause = "pause",
    ModeLabel = "mode_label",
    ModeAligned = "mode_aligned",
    ModeUnaligned = "mode_unaligned",
    ModeAtLeastOnce = "mode_at_least_once",
    ModeOff = "mode_off",
    SeedLabel = "seed_label",
    RestartSeed = "restart_seed",
    TriggerCheckpoint = "trigger_checkpoint",
    Savepoint = "savepoint",
    Help = "help",
    ShortcutsTitle = "shortcuts_title",
    ShortcutPlay = "shortcut_play",
    ShortcutStepForward = "shortcut_step_forward",
    ShortcutStepBack = "shortcut_step_back",
    ShortcutCheckpoint = "shortcut_checkpoint",
    ShortcutHelp = "shortcut_help",
    Close = "close",
    Clock = "clock",
    ScrubberLabel = "scrubber_label",
    MarkerCompleted = "marker_completed",
    MarkerAborted = "marker_aborted",
    MarkerFailure = "marker_failure",
    ErrorPrefix = "error_prefix",
    Dismiss = "dismiss",
    JobRunning = "job_running",
    JobRestarting = "job_restarting",
    JobFinished = "job_finished",
    JobFailed = "job_failed",
    JobCanceled = "job_canceled",
    JobAtEnd = "job_at_end",
    TaskRunning = "task_running",
    TaskWaiting = "task_waiting",
    TaskFinished = "task_finished",
    TaskFailed = "task_failed",
    TaskCanceled = "task_canceled",
    RestartCountdown = "restart_countdown",
    Backpressured = "backpressured",
    Aligning = "aligning",
    /// A lane's note: failed or canceled, the job waits for its restart delay.
    LaneRestarting = "lane_restarting",
    /// The storage tab: a checkpoint that died with the JobManager's memory.
    StorageLost = "storage_lost",
    /// The history's status of a completed checkpoint lost with the JobManager.
    StatusLost = "status_lost",
    /// A lane's note: an unaligned checkpoint's barriers still to come (`{ids}`).
    UnalignedNote = "unaligned_note",
    Blocked = "blocked",
    Persisting = "persisting",
    /// A lane's state line: values left out for want of room (`{n}`).
    StateMore = "state_more",
    /// A lane's state line: a two-phase-commit sink's open transaction (`{id}`).
    StateOpenTxn = "state_open_txn",
    /// A lane's state line: a pre-committed transaction (`{id}`).
    StatePrecommittedTxn = "state_precommitted_txn",
    /// A transaction the sink still holds as pre-committed that the external
    /// system has aborted (Kafka's transaction timeout).
    StateAbortedTxn = "state_aborted_txn",
    /// A lane's state line after a restore that had no checkpoint.
    StateFromScratch = "state_from_scratch",
    /// The sink tab's heading per sink kind.
    SinkKind2pc = "sink_kind_2pc",
    SinkKindPlain = "sink_kind_plain",
    SinkKindIdempotent = "sink_kind_idempotent",
    /// The correctness meter's heading.
    VerdictHeading = "verdict_heading",
    /// The meter's counts (`{n}`).
    VerdictCommitted = "verdict_committed",
    VerdictDuplicates = "verdict_duplicates",
    VerdictNotYet = "verdict_not_yet",
    VerdictLost = "verdict_lost",
    /// The meter's note for a sink fed by processing-time windows.
    VerdictProcessingTime = "verdict_processing_time",
    /// A duplicate chip's title: copy `{copy}` of its origin.
    VerdictDuplicateTitle = "verdict_duplicate_title",
    /// `failed_fixed_delay` and `failed_failure_rate` when `{max}` is 1.
    FailedFixedDelayOne = "failed_fixed_delay_one",
    FailedFailureRateOne = "failed_failure_rate_one",
    /// A checkpoint that outlived the checkpoint timeout (`CHECKPOINT_EXPIRED`).
    StatusExpired = "status_expired",
    StripNotAcknowledged = "strip_not_acknowledged",
    /// The duplicates count for exactly one (`{n}`).
    VerdictDuplicatesOne = "verdict_duplicates_one",
    /// A timing-dependent sink's outputs that differ from the failure-free run (`{n}`; `_one` for 1).
    VerdictTiming = "verdict_timing",
    VerdictTimingOne = "verdict_timing_one",
    /// The meter's note for a sink fed by state with a TTL.
    VerdictStateTtl = "verdict_state_ttl",
    /// A record an unaligned barrier overtook: persisted into chk-`{id}`'s channel state.
    PersistedInto = "persisted_into",
    LaneButton = "lane_button",
    StateHeading = "state_heading",
    StateSource = "state_source",
    StateKeyed = "state_keyed",
    State2pc = "state_2pc",
    CurrentTxn = "current_txn",
    PendingTxns = "pending_txns",
    Stateless = "stateless",
    Processed = "processed",
    Crash = "crash",
    LastCheckpoint = "last_checkpoint",
    None = "none",
    PendingHeading = "pending_heading",
    AckedOf = "acked_of",
    WaitingFor = "waiting_for",
    NoPending = "no_pending",
    HistoryHeading = "history_heading",
    ColId = "col_id",
    ColStatus = "col_status",
    ColAcked = "col_acked",
    ColTrigger = "col_trigger",
    ColDuration = "col_duration",
    ColSize = "col_size",
    ColAlignment = "col_alignment",
    ColPersisted = "col_persisted",
    StatusInProgress = "status_in_progress",
    StatusCompleted = "status_completed",
    StatusAborted = "status_aborted",
    KindSavepoint = "kind_savepoint",
    NoCheckpoints = "no_checkpoints",
    StorageRetained = "storage_retained",
    NoStorage = "no_storage",
    CompletedAt = "completed_at",
    TxnOpen = "txn_open",
    TxnPrecommitted = "txn_precommitted",
    TxnCommitted = "txn_committed",
    TxnAborted = "txn_aborted",
    TxnHeading = "txn_heading",
    ReadCommitted = "read_committed",
    ReadUncommitted = "read_uncommitted",
    Nothing = "nothing",
    NoSinks = "no_sinks",
    LogHeading = "log_heading",
    FilterLabel = "filter_label",
    FilterAll = "filter_all",
    FilterCheckpoints = "filter_checkpoints",
    FilterTransactions = "filter_transactions",
    FilterFailures = "filter_failures",
    FilterRecords = "filter_records",
    AboutScenario = "about_scenario",
    EpochTitle = "epoch_title",
    BarrierTitle = "barrier_title",
    UnalignedBarrier = "unaligned_barrier",
    /// Heading of the stage's text summary of the token canvas.
    TokensHeading = "tokens_heading",
    /// The summary when nothing is in flight.
    TokensNone = "tokens_none",
    /// One channel in the summary: `{from}`, `{to}`, `{records}`.
    ChannelTokens = "channel_tokens",
    /// Why the job failed, in words: the fixed-delay strategy's attempts (`{max}`) are used up.
    FailedFixedDelay = "failed_fixed_delay",
    /// Why the job failed: too many failures (`{max}`) within the failure-rate interval (`{interval}` ms).
    FailedFailureRate = "failed_failure_rate",
    /// Why the job failed: the restart strategy is none.
    FailedNoRestart = "failed_no_restart",
    /// Why the job failed: the exponential-delay strategy's attempts are used up.
    FailedExponential = "failed_exponential",
    /// Why the job failed: restoring the latest checkpoint failed.
    FailedRestore = "failed_restore",
    /// Why the job failed: any other reason.
    FailedOther = "failed_other",
    /// The failure that ended the job: `{reason}`.
    FailedLastFailure = "failed_last_failure",
    /// A subtask crashed by the script or the user (a `{reason}` of `failed_last_failure`).
    FailureCrashed = "failure_crashed",
    /// Too many failed checkpoints (a `{reason}` of `failed_last_failure`).
    FailureTolerable = "failure_tolerable",
    /// Label of the original (Flink) wording of the failure, shown as the technical detail.
    FailureOriginal = "failure_original",
    LegendUnaligned = "legend_unaligned",
    LegendQueue = "legend_queue",
    ProjectorMode = "projector_mode",
    StageHint = "stage_hint",
    SubtaskTimeline = "subtask_timeline",
    JumpFirstBarrier = "jump_first_barrier",
    JumpSnapshot = "jump_snapshot",
    JumpAck = "jump_ack",
    TwinView = "twin_view",
    TwinViewHint = "twin_view_hint",
    TabBench = "tab_bench",
    BenchHeading = "bench_heading",
    BenchIntro = "bench_intro",
    BenchSyntax = "bench_syntax",
    BenchMode = "bench_mode",
    BenchChannels = "bench_channels",
    BenchTimeout = "bench_timeout",
    BenchArrivals = "bench_arrivals",
    BenchExamples = "bench_examples",
    BenchExampleAligned = "bench_example_aligned",
    BenchExampleUnaligned = "bench_example_unaligned",
    BenchExampleTimeout = "bench_example_timeout",
    BenchExampleAtLeastOnce = "bench_example_at_least_once",
    BenchStep = "bench_step",
    BenchPrev = "bench_prev",
    BenchNext = "bench_next",
    BenchColToken = "bench_col_token",
    BenchColProcessed = "bench_col_processed",
    BenchColBlocked = "bench_col_blocked",
    BenchColOutcome = "bench_col_outcome",
    BenchChannel = "bench_channel",
    BenchBlocked = "bench_blocked",
    BenchTriggeredAligned = "bench_triggered_aligned",
    BenchTriggeredUnaligned = "bench_triggered_unaligned",
    BenchTriggeredTracked = "bench_triggered_tracked",
    BenchChannelState = "bench_channel_state",
    BenchAborted = "bench_aborted",
    BenchTimer = "bench_timer",
    BenchSummary = "bench_summary",
    BranchLabel = "branch_label",
    BranchCurrent = "branch_current",
    BranchWith = "branch_with",
    BranchWithout = "branch_without",
    BranchCrash = "branch_crash",
    BranchTrigger = "branch_trigger",
    BranchSavepoint = "branch_savepoint",
    BranchStopWithSavepoint = "branch_stop_with_savepoint",
    BranchCancel = "branch_cancel",
    BranchCrashJobmanager = "branch_crash_jobmanager",
    CrashJobmanager = "crash_jobmanager",
    CrashJobmanagerHint = "crash_jobmanager_hint",
    StorageInMemory = "storage_in_memory",
    StorageInFiles = "storage_in_files",
    StorageDiscarded = "storage_discarded",
    StorageBrowse = "storage_browse",
    ColUploaded = "col_uploaded",
    /// The tools menu (seed, glossary, edit, share, export, import).
    MoreTools = "more_tools",
    Fullscreen = "fullscreen",
    ExitFullscreen = "exit_fullscreen",
    /// Hurry through stretches where nothing significant happens.
    SkipQuiet = "skip_quiet",
    SkipQuietHint = "skip_quiet_hint",
    /// Said while playback hurries.
    Hurrying = "hurrying",
    /// Stop playing at each key moment.
    AutoPause = "auto_pause",
    AutoPauseHint = "auto_pause_hint",
    /// The key moments (`playback::MomentKind`).
    MomentBlocked = "moment_blocked",
    MomentSnapshot = "moment_snapshot",
    MomentCompleted = "moment_completed",
    MomentCrash = "moment_crash",
    MomentRestore = "moment_restore",
    MomentCommit = "moment_commit",
    /// A lesson's declared points (`engine::scenario::points::PointEvent`).
    MomentPointCheckpointCompleted = "moment_point_checkpoint_completed",
    MomentPointCheckpointExpired = "moment_point_checkpoint_expired",
    MomentPointCheckpointAborted = "moment_point_checkpoint_aborted",
    MomentPointAlignmentTimedOut = "moment_point_alignment_timed_out",
    MomentPointBarrierOvertook = "moment_point_barrier_overtook",
    MomentPointTaskFailed = "moment_point_task_failed",
    MomentPointFailover = "moment_point_failover",
    MomentPointJobFailed = "moment_point_job_failed",
    MomentPointJobCanceled = "moment_point_job_canceled",
    MomentPointJobFinished = "moment_point_job_finished",
    MomentPointJobmanagerFailed = "moment_point_jobmanager_failed",
    MomentPointStateRestored = "moment_point_state_restored",
    MomentPointTransactionCommitted = "moment_point_transaction_committed",
    MomentPointTransactionAborted = "moment_point_transaction_aborted",
    MomentPointTransactionCommitFailed = "moment_point_transaction_commit_failed",
    MomentPointClaimedSnapshotDeleted = "moment_point_claimed_snapshot_deleted",
    MomentPointCheckpointsDiscarded = "moment_point_checkpoints_discarded",
    /// The caption's badge when auto-pause stopped at `{moment}`.
    MomentPaused = "moment_paused",
    /// The caption's badge at a key moment reached otherwise.
    MomentAt = "moment_at",
    /// The caption before anything has happened.
    CaptionIdle = "caption_idle",
    CaptionLabel = "caption_label",
    ClosePanel = "close_panel",
    ShortcutNextMoment = "shortcut_next_moment",
    ShortcutPrevMoment = "shortcut_prev_moment",
    ShortcutPause = "shortcut_pause",
    ShortcutSpeed = "shortcut_speed",
    ShortcutTourNote = "shortcut_tour_note",
    /// The engine's step count after the clock, for assistive technology.
    ClockStep = "clock_step",
    /// On a touchscreen: the caption before anything has happened (tap, not keys).
    CaptionIdleTouch = "caption_idle_touch",
    /// On a touchscreen: the caption's badge when auto-pause stopped.
    MomentPausedTouch = "moment_paused_touch",
    /// A timeline marker standing for `{n}` close marks (`{list}`).
    MarkersMerged = "markers_merged",
    /// A subtask's sheet where no crash is possible (failed, canceled, finished).
    CrashImpossible = "crash_impossible",
    /// A checkpoint's phases per subtask (`components::phase_timeline`).
    PhasesOpen = "phases_open",
    PhasesOpenLabel = "phases_open_label",
    PhasesCaption = "phases_caption",
    PhasesPending = "phases_pending",
    PhasesAborted = "phases_aborted",
    PhaseStartDelay = "phase_start_delay",
    PhaseAlignment = "phase_alignment",
    PhaseSync = "phase_sync",
    PhaseAsync = "phase_async",
    PhaseUnreached = "phase_unreached",
    PhaseAck = "phase_ack",
    PhaseShortDelay = "phase_short_delay",
    PhaseShortAlign = "phase_short_align",
    PhaseShortSync = "phase_short_sync",
    PhaseShortAsync = "phase_short_async",
    PhasesFinished = "phases_finished",
    PhasesOrder = "phases_order",
    PhasesAsyncNote = "phases_async_note",
    PhasesUnalignedNote = "phases_unaligned_note",
    PhasesLabNote = "phases_lab_note",
    PhasesRealNote = "phases_real_note",
    /// The pending card's subtasks in their asynchronous phase.
    PhasesUploading = "phases_uploading",
    /// The restart strategy's count against its limit (fixed delay, none).
    RestartCount = "restart_count",
    /// The failure-rate strategy's failures inside its window, of its limit.
    RestartWindowCount = "restart_window_count",
    /// Exponential delay with `attempts`: attempts since the reset, the next delay.
    RestartExponentialCount = "restart_exponential_count",
    /// Exponential delay without a limit (Flink's default).
    RestartExponentialUnlimited = "restart_exponential_unlimited",
    /// The tooltip of the restart count.
    RestartCountTitle = "restart_count_title",
    /// The failure-rate window's band on the scrubber.
    RestartWindowBand = "restart_window_band",
    /// The top bar's button that opens the interview drill, and its tooltip (here,
    /// not in `drill.json`, which the page fetches when the drill opens).
    DrillOpen = "drill_open",
    DrillOpenHint = "drill_open_hint",
}

/// The page's wording file, compiled in for native code and the tests.
#[cfg(any(feature = "bundled", not(target_arch = "wasm32")))]
pub const UI_JSON: &str = Msg::JSON;

/// `ui.json`'s table.
pub static UI: Book<Vec<Entry>> = Book::new("i18n/ui.json", compiled_in!(Msg::JSON), Msg::parse);

/// One message in every language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Simplified Chinese.
    pub zh: String,
    /// Traditional Chinese, generated from `zh` by `scripts/hant.cjs`.
    #[serde(rename = "zh-Hant", default)]
    pub zh_hant: Option<String>,
    /// English.
    pub en: String,
}

/// Parses `ui.json` into a table indexed by `Msg as usize`.
pub fn parse_table(json: &str) -> Result<Vec<Entry>, WordingError> {
    Msg::parse(json)
}

/// Parses the wording file `file` into a table in the order of `keys`. Keys
/// starting with `_` are comments. The error names the offending key, for the
/// teacher who edited it.
pub fn parse_entries(
    json: &str,
    file: &'static str,
    keys: &[&str],
) -> Result<Vec<Entry>, WordingError> {
    let raw: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| WordingError::json(file, &e))?;
    let mut entries: BTreeMap<&str, Entry> = BTreeMap::new();
    for (key, value) in &raw {
        if key.starts_with('_') {
            continue;
        }
        if !keys.contains(&key.as_str()) {
            return Err(WordingError::UnknownKey {
                file,
                key: key.clone(),
            });
        }
        let entry = Entry::deserialize(value).map_err(|e| {
            WordingError::entry(
                file,
                format!("\"{key}\""),
                format_args!("needs {{\"zh\": …, \"en\": …}}: {e}"),
            )
        })?;
        if entry.zh.trim().is_empty() || entry.en.trim().is_empty() {
            return Err(WordingError::EmptyTranslation {
                file,
                key: key.clone(),
            });
        }
        entries.insert(key, entry);
    }
    keys.iter()
        .map(|k| {
            entries.remove(k).ok_or_else(|| WordingError::MissingKey {
                file,
                key: k.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guards the teacher-editable file: every key present, none unknown, none empty.
    #[test]
    fn shipped_wording_is_complete_in_both_languages() {
        let table = parse_table(UI_JSON).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table.len(), Msg::ALL.len());
        for (i, m) in Msg::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i, "Msg::ALL must follow declaration order");
        }
    }

    #[test]
    fn lookup_returns_each_language() {
        assert_eq!(Lang::Zh.t(Msg::AppTitle), "Flink 检查点实验室");
        assert_eq!(Lang::En.t(Msg::AppTitle), "Flink Checkpointing Lab");
        // Generated, or (before generation) the Simplified fallback: never blank.
        assert!(
            ["Flink 檢查點實驗室", "Flink 检查点实验室"].contains(&Lang::ZhHant.t(Msg::AppTitle))
        );
    }

    #[test]
    fn traditional_falls_back_to_simplified_then_english() {
        let table = parse_table(UI_JSON).unwrap();
        let with = |json: &str| -> Entry { serde_json::from_str(json).unwrap() };
        let full = with(r#"{"zh": "检查点", "zh-Hant": "檢查點", "en": "checkpoint"}"#);
        let missing = with(r#"{"zh": "检查点", "en": "checkpoint"}"#);
        let blank = with(r#"{"zh": "检查点", "zh-Hant": " ", "en": "checkpoint"}"#);
        let no_chinese = with(r#"{"zh": "", "en": "checkpoint"}"#);
        let pick =
            |e: &Entry, lang: Lang| lang.pick(&e.zh, e.zh_hant.as_deref(), &e.en).to_string();
        assert_eq!(pick(&full, Lang::ZhHant), "檢查點");
        assert_eq!(pick(&full, Lang::Zh), "检查点");
        assert_eq!(pick(&full, Lang::En), "checkpoint");
        assert_eq!(pick(&missing, Lang::ZhHant), "检查点");
        assert_eq!(pick(&blank, Lang::ZhHant), "检查点");
        assert_eq!(pick(&no_chinese, Lang::ZhHant), "checkpoint");
        assert_eq!(pick(&no_chinese, Lang::Zh), "checkpoint");
        // A wording file without any zh-Hant still parses, and every message
        // reads in Traditional as its Simplified text or its own.
        let old = r#"{"app_title": {"zh": "实验室", "en": "Lab"}}"#;
        assert!(parse_entries(old, "x.json", &["app_title"]).is_ok());
        for (m, e) in Msg::ALL.iter().zip(&table) {
            let hant = Lang::ZhHant.t(*m);
            assert!(!hant.trim().is_empty(), "{m:?}");
            assert!(e.zh_hant.is_some() || hant == e.zh, "{m:?}");
        }
    }

    #[test]
    fn the_switch_names_each_language_in_itself() {
        let short: Vec<&str> = Lang::ALL.iter().map(|l| l.short_name()).collect();
        assert_eq!(short, ["简", "繁", "EN"]);
        assert_eq!(Lang::ZhHant.html_lang(), "zh-Hant");
        assert!(Lang::ZhHant.is_chinese() && Lang::Zh.is_chinese() && !Lang::En.is_chinese());
    }

    #[test]
    fn a_typo_in_the_wording_file_names_the_key() {
        let err = parse_table(r#"{"app_titel": {"zh": "x", "en": "y"}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("app_titel"), "{err}");
        let err = parse_table(r#"{"app_title": {"zh": "x"}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("app_title"), "{err}");
        let err = parse_table(r#"{"app_title": {"zh": "x", "en": " "}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("empty"), "{err}");
        let err = parse_table(r#"{"_readme": "comments are fine"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing key"), "{err}");
    }

    #[test]
    fn query_parameter_picks_the_language() {
        assert_eq!(lang_from_query("?lang=zh"), Some(Lang::Zh));
        assert_eq!(lang_from_query("?lang=en"), Some(Lang::En));
        assert_eq!(lang_from_query("lang=en"), Some(Lang::En));
        assert_eq!(
            lang_from_query("?seed=7&lang=zh-CN&speed=2"),
            Some(Lang::Zh)
        );
        assert_eq!(lang_from_query("?lang=EN-us"), Some(Lang::En));
        assert_eq!(lang_from_query("?lang=fr&lang=en"), Some(Lang::En));
        assert_eq!(lang_from_query("?lang=zh-Hant"), Some(Lang::ZhHant));
        assert_eq!(lang_from_query("?lang=zh-TW"), Some(Lang::ZhHant));
        assert_eq!(
            lang_from_query("?seed=3&lang=zh_Hant_HK"),
            Some(Lang::ZhHant)
        );
        assert_eq!(lang_from_query("?lang=zh-HK"), Some(Lang::ZhHant));
        assert_eq!(lang_from_query("?lang=zh-Hans"), Some(Lang::Zh));
    }

    #[test]
    fn query_without_a_known_language_is_none() {
        assert_eq!(lang_from_query(""), None);
        assert_eq!(lang_from_query("?"), None);
        assert_eq!(lang_from_query("?lang="), None);
        assert_eq!(lang_from_query("?lang=fr"), None);
        assert_eq!(lang_from_query("?language=en"), None);
        assert_eq!(lang_from_query("?xlang=en"), None);
    }

    #[test]
    fn browser_tags_map_to_languages() {
        for tag in [
            "zh",
            "zh-CN",
            "zh-SG",
            "zh_Hans_CN",
            "zh-Hans-TW",
            "ZH",
            "zh-cmn",
        ] {
            assert_eq!(Lang::from_tag(tag), Some(Lang::Zh), "{tag}");
        }
        for tag in [
            "zh-TW",
            "zh-HK",
            "zh-MO",
            "zh-Hant",
            "zh_Hant_TW",
            "zh-hant-CN",
            "ZH-tw",
        ] {
            assert_eq!(Lang::from_tag(tag), Some(Lang::ZhHant), "{tag}");
        }
        for tag in ["en", "en-US", "en-GB", "EN"] {
            assert_eq!(Lang::from_tag(tag), Some(Lang::En), "{tag}");
        }
        for tag in ["", "de-DE", "zhx", "e"] {
            assert_eq!(Lang::from_tag(tag), None, "{tag}");
        }
    }

    #[test]
    fn detection_prefers_url_then_browser_then_english() {
        assert_eq!(detect("?lang=en", ["zh-CN"]), Lang::En);
        assert_eq!(detect("?lang=zh", ["en-US"]), Lang::Zh);
        assert_eq!(detect("", ["en-US"]), Lang::En);
        assert_eq!(detect("?lang=fr", ["de-DE", "en-GB", "zh"]), Lang::En);
        assert_eq!(detect("", ["zh-TW"]), Lang::ZhHant);
        assert_eq!(detect("", ["zh-HK", "en"]), Lang::ZhHant);
        assert_eq!(detect("", ["zh-CN", "zh-TW"]), Lang::Zh);
        assert_eq!(detect("", ["fr", "zh-Hant"]), Lang::ZhHant);
        assert_eq!(detect("?lang=zh-TW", ["en-US"]), Lang::ZhHant);
        assert_eq!(detect("?lang=zh", ["zh-TW"]), Lang::Zh);
        assert_eq!(detect("?lang=en", ["zh-HK"]), Lang::En);
        assert_eq!(detect("", ["de-DE"]), Lang::En);
        assert_eq!(detect("", []), Lang::En);
        assert_eq!(detect("?lang=zh", []), Lang::Zh);
    }

    #[test]
    fn codes_round_trip() {
        for lang in Lang::ALL {
            assert_eq!(
                lang_from_query(&format!("?lang={}", lang.code())),
                Some(lang)
            );
            assert_eq!(Lang::from_tag(lang.html_lang()), Some(lang));
        }
    }
}
