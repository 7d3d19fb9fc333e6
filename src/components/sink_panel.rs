//! The sink tab: per sink, its kind in the heading (two-phase commit, plain
//! at-least-once, idempotent upsert), the correctness meter — the engine's
//! verdicts by origin against the failure-free run, counted apart: committed,
//! duplicates, not committed yet, lost — then its transactions (open →
//! pre-committed, dashed → committed, solid / aborted), and what a
//! `read_committed` and a `read_uncommitted` consumer see, duplicates marked ×2 / ×3.

use std::rc::Rc;

use engine::scenario::SinkKind;
use engine::verdict::{Reference, SinkVerdicts, TimingCause, Verdict};
use engine::view::{JobView, RecordView, WorldView};
use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::scene::record_label;

/// Properties of [`SinkPanel`].
#[derive(Properties)]
pub struct SinkPanelProps {
    /// The job graph (the sinks' kinds when there is no reference).
    pub job: Rc<JobView>,
    /// The world now.
    pub view: Rc<WorldView>,
    /// What the failure-free run commits (the verdicts' yardstick).
    #[prop_or_default]
    pub reference: Option<Rc<Reference>>,
}

/// Equal when what the tab draws is: the sinks, the job's status (a finished
/// job's missing outputs are lost, not "not committed yet") and the reference.
impl PartialEq for SinkPanelProps {
    fn eq(&self, other: &Self) -> bool {
        (Rc::ptr_eq(&self.job, &other.job) || self.job == other.job)
            && (Rc::ptr_eq(&self.view, &other.view)
                || (self.view.sinks == other.view.sinks && self.view.status == other.view.status))
            && match (&self.reference, &other.reference) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

fn chip_text(r: &RecordView) -> String {
    match r.key.as_deref() {
        Some(k) if record_label(Some(k), r.value) != r.value.to_string() => k.to_string(),
        Some(k) => format!("{k}:{}", r.value),
        None => r.value.to_string(),
    }
}

fn title_of(r: &RecordView) -> String {
    format!(
        "{}{} · p{} @{}",
        r.key
            .as_deref()
            .map(|k| format!("{k}: "))
            .unwrap_or_default(),
        r.value,
        r.origin.partition,
        r.origin.offset
    )
}

/// A list of records; `verdicts` (one per record, when judged) marks duplicates.
fn records(list: &[RecordView], verdicts: Option<&[Verdict]>, empty: &str, lang: Lang) -> Html {
    if list.is_empty() {
        return html! { <p class="muted">{ empty.to_string() }</p> };
    }
    html! {
        <ul class="record-list">
            { for list.iter().enumerate().map(|(i, r)| {
                let copy = match verdicts.and_then(|v| v.get(i)) {
                    Some(Verdict::Duplicate { copy }) => Some(*copy),
                    _ => None,
                };
                let title = match copy {
                    Some(c) => format!("{} — {}", title_of(r), lang.t(Msg::VerdictDuplicateTitle).replace("{copy}", &c.to_string())),
                    None => title_of(r),
                };
                html! {
                    <li class={classes!("record-chip", copy.map(|_| "record-chip--duplicate"))}
                        data-copy={copy.map(|c| c.to_string())} {title}>
                        { chip_text(r) }
                        if let Some(c) = copy {
                            <span class="record-chip__badge">{ format!("×{c}") }</span>
                        }
                    </li>
                }
            }) }
        </ul>
    }
}

/// `many` with `{n}` filled in, or `one` when `n` is 1 (English agrees in number).
fn count(lang: Lang, many: Msg, one: Msg, n: u32) -> String {
    lang.t(if n == 1 { one } else { many })
        .replace("{n}", &n.to_string())
}

/// One count of the correctness meter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeterLine {
    /// Which count (`committed`, `duplicates`, `not-yet`, `lost`, `timing`): the
    /// class suffix.
    pub key: &'static str,
    /// The number it says.
    pub n: u32,
    /// What it says, in the page's language.
    pub text: String,
}

/// The meter's counts as said (pure, so a native test reads what the page says).
/// A sink whose outputs depend on timing says what differs from the
/// failure-free run instead of duplicates and losses, which its origins cannot
/// tell apart from timing; its note says why ([`meter_note`]).
pub fn meter_lines(v: &SinkVerdicts, lang: Lang) -> Vec<MeterLine> {
    let c = v.counts;
    let line = |key, n, text| MeterLine { key, n, text };
    let plain = |m: Msg, n: u32| lang.t(m).replace("{n}", &n.to_string());
    let mut lines = vec![line(
        "committed",
        c.committed,
        plain(Msg::VerdictCommitted, c.committed),
    )];
    if v.timing.is_none() {
        lines.push(line(
            "duplicates",
            c.duplicates,
            count(
                lang,
                Msg::VerdictDuplicates,
                Msg::VerdictDuplicatesOne,
                c.duplicates,
            ),
        ));
    }
    lines.push(line(
        "not-yet",
        c.not_yet,
        plain(Msg::VerdictNotYet, c.not_yet),
    ));
    lines.push(match v.timing {
        None => line("lost", c.lost, plain(Msg::VerdictLost, c.lost)),
        Some(_) => line(
            "timing",
            c.timing,
            count(lang, Msg::VerdictTiming, Msg::VerdictTimingOne, c.timing),
        ),
    });
    lines
}

/// Why a timing-dependent sink's outputs differ from the failure-free run's.
pub fn meter_note(v: &SinkVerdicts, lang: Lang) -> Option<&'static str> {
    v.timing.map(|cause| {
        lang.t(match cause {
            TimingCause::ProcessingTimeWindow => Msg::VerdictProcessingTime,
            TimingCause::StateTtl => Msg::VerdictStateTtl,
        })
    })
}

/// The correctness meter: the verdicts counted apart (never "missing").
fn meter(v: &SinkVerdicts, lang: Lang) -> Html {
    let c = v.counts;
    html! {
        <div class="verdicts" data-committed={c.committed.to_string()} data-duplicates={c.duplicates.to_string()}
             data-not-yet={c.not_yet.to_string()} data-lost={c.lost.to_string()} data-timing={c.timing.to_string()}>
            <p class="verdicts__title">{ lang.t(Msg::VerdictHeading) }</p>
            <ul class="verdicts__counts">
                { for meter_lines(v, lang).into_iter().map(|l| html! {
                    <li class={classes!("verdict", format!("verdict--{}", l.key), (l.n == 0 && l.key != "committed").then_some("verdict--zero"))}>{ l.text }</li>
                }) }
            </ul>
            if let Some(note) = meter_note(v, lang) {
                <p class="verdicts__note muted">{ note }</p>
            }
        </div>
    }
}

/// A sink's kind from the job graph (its `detail` is the engine's kind name).
fn kind_in(job: &JobView, uid: &str) -> SinkKind {
    match job
        .operators
        .iter()
        .find(|o| o.uid == uid)
        .and_then(|o| o.detail.as_deref())
    {
        Some("TwoPhaseCommit") => SinkKind::TwoPhaseCommit,
        Some("Idempotent") => SinkKind::Idempotent,
        _ => SinkKind::AtLeastOnce,
    }
}

#[component]
pub fn SinkPanel(props: &SinkPanelProps) -> Html {
    let lang = use_lang().lang;
    let sinks = &props.view.sinks;
    if sinks.is_empty() {
        return html! { <p class="muted">{ lang.t(Msg::NoSinks) }</p> };
    }
    let verdicts: Vec<SinkVerdicts> = props
        .reference
        .as_ref()
        .map(|r| r.judge(&props.view))
        .unwrap_or_default();
    html! {
        <>
            { for sinks.iter().map(|s| {
                let seen: Vec<RecordView> = s.committed.iter().chain(&s.uncommitted).cloned().collect();
                let judged = verdicts.iter().find(|v| v.uid == s.uid);
                let kind = judged.map_or_else(|| kind_in(&props.job, &s.uid), |v| v.kind);
                let kind_key = sink_kind_key(kind);
                html! {
                    <section class={classes!("sink", format!("sink--{kind_key}"))} data-sink={s.uid.clone()} data-sink-kind={kind_key}>
                        <h3 class="section-title sink__heading">{ format!("{} — {}", s.uid, labels::sink_kind(lang, kind)) }</h3>
                        if let Some(v) = judged {
                            { meter(v, lang) }
                        }
                        if s.txns.is_empty() && s.committed.is_empty() && s.uncommitted.is_empty() {
                            <p class="muted">{ lang.t(Msg::Nothing) }</p>
                        }
                        if !s.txns.is_empty() {
                            <h4 class="consumer-title">{ lang.t(Msg::TxnHeading) }</h4>
                        }
                        <ul class="txn-list">
                            { for s.txns.iter().rev().map(|t| {
                                let (key, status, glyph) = labels::txn_status(lang, t.status);
                                html! {
                                    <li class={classes!("txn", format!("txn--{key}"))} data-txn={t.id.to_string()}>
                                        <div class="txn__head">
                                            <strong>{ format!("T{}", t.id) }</strong>
                                            <span class="txn__task">{ t.task.to_string() }</span>
                                            if let Some(c) = t.checkpoint {
                                                <span class="txn__chk">{ format!("chk {c}") }</span>
                                            }
                                            <span class="txn__status">{ glyph }{ " " }{ status }</span>
                                        </div>
                                        { records(&t.records, None, lang.t(Msg::Nothing), lang) }
                                    </li>
                                }
                            }) }
                        </ul>
                        <h4 class="consumer-title">{ lang.t(Msg::ReadCommitted) }</h4>
                        <div class="consumer consumer--committed">{ records(&s.committed, judged.map(|v| v.outputs.as_slice()), lang.t(Msg::Nothing), lang) }</div>
                        <h4 class="consumer-title">{ lang.t(Msg::ReadUncommitted) }</h4>
                        <div class="consumer consumer--uncommitted">{ records(&seen, judged.map(|v| v.outputs.as_slice()), lang.t(Msg::Nothing), lang) }</div>
                    </section>
                }
            }) }
        </>
    }
}

/// A sink kind's stable key (class suffix, `data-sink-kind`).
fn sink_kind_key(kind: SinkKind) -> &'static str {
    match kind {
        SinkKind::TwoPhaseCommit => "two-phase-commit",
        SinkKind::AtLeastOnce => "at-least-once",
        SinkKind::Idempotent => "idempotent",
    }
}
