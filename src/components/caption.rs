//! The caption bar under the graph: the latest narration sentence, always
//! visible, in the current language — the page's one live region for narration
//! (the full log stays in the narration tab); at a key moment, the sentence of
//! the event that made it ([`caption_sentence`]). When playback stopped at a key
//! moment (auto-pause) or jumped to one (PageDown), a badge names the moment;
//! while playback hurries through a quiet stretch, a note says so. On a
//! touchscreen the caption says what to tap instead of naming keys.

use std::rc::Rc;

use yew::prelude::*;

use crate::describe::caption_sentence;
use crate::hooks::{use_lang, use_touch};
use crate::i18n::{Lang, Msg};
use crate::playback::{KeyMoment, LoggedEvent, MomentKind};
use engine::scenario::points::PointEvent;

/// Properties of [`CaptionBar`].
#[derive(Properties, PartialEq)]
pub struct CaptionProps {
    /// The latest events up to the cursor.
    pub recent: Rc<Vec<LoggedEvent>>,
    /// The key moment at the cursor, if any.
    #[prop_or_default]
    pub moment: Option<KeyMoment>,
    /// Playback stopped by itself at `moment`.
    #[prop_or_default]
    pub is_auto_paused: bool,
    /// Playback is hurrying through a quiet stretch.
    #[prop_or_default]
    pub is_hurrying: bool,
    /// Notices and the lesson pair's difference, below the sentence.
    #[prop_or_default]
    pub children: Html,
}

/// The words for a key moment.
pub fn moment_label(lang: Lang, kind: MomentKind) -> &'static str {
    lang.t(match kind {
        MomentKind::Blocked => Msg::MomentBlocked,
        MomentKind::Snapshot => Msg::MomentSnapshot,
        MomentKind::Completed => Msg::MomentCompleted,
        MomentKind::Crash => Msg::MomentCrash,
        MomentKind::Restore => Msg::MomentRestore,
        MomentKind::Commit => Msg::MomentCommit,
        MomentKind::Point(event) => match event {
            PointEvent::CheckpointCompleted => Msg::MomentPointCheckpointCompleted,
            PointEvent::CheckpointExpired => Msg::MomentPointCheckpointExpired,
            PointEvent::CheckpointAborted => Msg::MomentPointCheckpointAborted,
            PointEvent::AlignmentTimedOut => Msg::MomentPointAlignmentTimedOut,
            PointEvent::BarrierOvertook => Msg::MomentPointBarrierOvertook,
            PointEvent::TaskFailed => Msg::MomentPointTaskFailed,
            PointEvent::Failover => Msg::MomentPointFailover,
            PointEvent::JobFailed => Msg::MomentPointJobFailed,
            PointEvent::JobCanceled => Msg::MomentPointJobCanceled,
            PointEvent::JobFinished => Msg::MomentPointJobFinished,
            PointEvent::JobmanagerFailed => Msg::MomentPointJobmanagerFailed,
            PointEvent::StateRestored => Msg::MomentPointStateRestored,
            PointEvent::TransactionCommitted => Msg::MomentPointTransactionCommitted,
            PointEvent::TransactionAborted => Msg::MomentPointTransactionAborted,
            PointEvent::TransactionCommitFailed => Msg::MomentPointTransactionCommitFailed,
            PointEvent::ClaimedSnapshotDeleted => Msg::MomentPointClaimedSnapshotDeleted,
            PointEvent::CheckpointsDiscarded => Msg::MomentPointCheckpointsDiscarded,
        },
    })
}

/// The caption bar; see the module documentation.
#[component]
pub fn CaptionBar(props: &CaptionProps) -> Html {
    let lang = use_lang().lang;
    let touch = use_touch();
    // Recomputed only when the log moved (not on every animation frame): the
    // search back for the last narrated event renders each quiet one it passes.
    let last = props.recent.last().map(|e| e.seq);
    let sentence = {
        let recent = props.recent.clone();
        use_memo(
            (last, props.recent.len(), props.moment, lang, touch),
            move |(_, _, moment, lang, touch)| {
                let idle = if *touch {
                    Msg::CaptionIdleTouch
                } else {
                    Msg::CaptionIdle
                };
                caption_sentence(&recent, moment.as_ref(), *lang)
                    .unwrap_or_else(|| lang.t(idle).to_string())
            },
        )
    };
    let badge = props.moment.map(|m| {
        let words = moment_label(lang, m.kind);
        let text = if props.is_auto_paused {
            let paused = if touch {
                Msg::MomentPausedTouch
            } else {
                Msg::MomentPaused
            };
            lang.t(paused).replace("{moment}", words)
        } else {
            lang.t(Msg::MomentAt).replace("{moment}", words)
        };
        (m.kind.key(), text)
    });
    html! {
        <div class="caption" role="group" aria-label={lang.t(Msg::CaptionLabel)}>
            <p class="caption__line" id="live-narration" aria-live="polite" aria-atomic="true"
               data-moment={badge.as_ref().map(|(k, _)| *k)}>
                if let Some((_, text)) = &badge {
                    <span class="caption__moment">{ text.clone() }</span>{ " " }
                }
                <span class="caption__text">{ (*sentence).clone() }</span>
            </p>
            if props.is_hurrying {
                <span class="caption__hurry" id="hurrying">{ lang.t(Msg::Hurrying) }</span>
            }
            { props.children.clone() }
        </div>
    }
}
