//! The wording of the Flink code tab and of the real checkpoint statistics
//! (`assets/i18n/flink.json`), apart from `ui.json` so that the two can be
//! edited (and merged) independently. Looked up like [`super::Msg`]:
//! `lang.t(FlinkMsg::Copy)`.

/// `flink.json`'s table.
pub static FLINK: super::Book<Vec<super::Entry>> = super::Book::new(
    "i18n/flink.json",
    compiled_in!(FlinkMsg::JSON),
    FlinkMsg::parse,
);

messages! {
    FlinkMsg in "flink.json" = FLINK, include_str!("../../assets/i18n/flink.json");
    /// The side panel's tab.
    Tab = "tab_flink",
    Empty = "flink_empty",
    /// While the exporter's Java fragments are fetched (the tab's first opening).
    Loading = "flink_loading",
    /// `{version}`: Flink's.
    Kind = "flink_kind",
    Intro = "flink_intro",
    Copy = "flink_copy",
    Copied = "flink_copied",
    CopyFailed = "flink_copy_failed",
    /// `{file}`.
    CopyLabel = "flink_copy_label",
    Download = "flink_download",
    /// `{file}`.
    DownloadLabel = "flink_download_label",
    /// `{n}`: the file's lines.
    Open = "flink_open",
    CheckpointingHeading = "flink_checkpointing",
    RunHeading = "flink_run",
    RunRepo = "flink_run_repo",
    RunPlain = "flink_run_plain",
    RunStats = "flink_run_stats",
    ApproxHeading = "flink_approx",
    /// `{line}`: where the job methods start.
    JobHeading = "flink_job",
    InterventionsNote = "flink_interventions",
    Refused = "flink_refused",
    /// `{file}`.
    CodeLabel = "flink_code_label",
    HighlightNote = "flink_highlight",
    RealOpen = "real_open",
    RealOpenHint = "real_open_hint",
    /// `{n}`, `{source}`.
    RealImported = "real_imported",
    RealHeading = "real_heading",
    RealIntro = "real_intro",
    RealFile = "real_file",
    RealPasteLabel = "real_paste_label",
    RealPasteButton = "real_paste_button",
    RealClear = "real_clear",
    /// `{source}`.
    RealError = "real_error",
    RealPasted = "real_pasted",
    /// `{file}`.
    RealSourceFile = "real_source_file",
    /// `{n}`.
    RealMoreErrors = "real_more_errors",
    /// `{line}`, `{column}`, `{detail}`.
    ErrSyntax = "real_err_syntax",
    /// `{path}`, `{expected}`, `{found}`.
    ErrType = "real_err_type",
    /// `{path}`.
    ErrMissing = "real_err_missing",
    /// `{path}`.
    ErrUnrecognised = "real_err_unrecognised",
    /// `{path}`, `{found}`, `{expected}`.
    ErrFormat = "real_err_format",
    ErrNoHistory = "real_err_no_history",
    KindNull = "real_kind_null",
    KindBool = "real_kind_bool",
    KindNumber = "real_kind_number",
    KindWhole = "real_kind_whole",
    KindString = "real_kind_string",
    KindArray = "real_kind_array",
    KindObject = "real_kind_object",
    LabPane = "real_lab",
    /// `{scenario}`, `{mode}`.
    LabPaneSub = "real_lab_sub",
    /// `{version}`.
    RealPane = "real_real",
    RealPaneNone = "real_real_none",
    /// `{job}`, `{source}`.
    RealJobSub = "real_job_sub",
    /// `{scale}`.
    RealTimeScale = "real_time_scale",
    /// `{total}`, `{completed}`, `{failed}`.
    Counts = "real_counts",
    Config = "real_config",
    OriginStart = "real_origin_start",
    OriginFirst = "real_origin_first",
    Missing = "real_missing",
    LabMissing = "real_lab_missing",
    ColSize = "real_col_size",
    ColProcessed = "real_col_processed",
    ColPersisted = "real_col_persisted",
    ColSubtask = "real_col_subtask",
    ColSync = "real_col_sync",
    ColAsync = "real_col_async",
    ColStartDelay = "real_col_start_delay",
    ColUnaligned = "real_col_unaligned",
    StatusFailed = "real_status_failed",
    /// `{n}`.
    Records = "real_records",
    Yes = "real_yes",
    No = "real_no",
    /// `{name}`, `{x}`, `{y}`.
    TaskAcked = "real_task_acked",
    NoDetails = "real_no_details",
    Failure = "real_failure",
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, Wording};

    #[test]
    fn shipped_wording_is_complete_in_both_languages() {
        let table = FlinkMsg::parse(FlinkMsg::JSON).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table.len(), FlinkMsg::ALL.len());
        for (i, m) in FlinkMsg::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i);
            assert!(!m.entry().en.is_empty());
        }
        assert_eq!(Lang::Zh.t(FlinkMsg::Copy), "复制");
        assert_eq!(Lang::En.t(FlinkMsg::Tab), "Flink code");
        let err = FlinkMsg::parse(r#"{"flink_copy": {"zh": "复制", "en": "Copy"}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("flink.json: missing key"), "{err}");
    }
}
