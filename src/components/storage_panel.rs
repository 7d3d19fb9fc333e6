//! The storage tab: each retained `chk-N/_metadata`, in the study notes' one-line
//! form (`chk-2: offset (0, 5), sum (even, 6) (odd, 9)`), where it lives
//! (the JobManager's memory or files), what was deleted, and the JobManager crash
//! button that shows why that matters.

use engine::view::JobView;
use engine::Intervention;
use serde_json::Value;
use yew::prelude::*;

use crate::components::coordinator_panel::PanelProps;
use crate::describe::metadata_parts;
use crate::hooks::use_lang;
use crate::i18n::extras::{x, xf};
use crate::i18n::Msg;
use crate::playback::Action;

#[component]
pub fn StoragePanel(props: &PanelProps) -> Html {
    let lang = use_lang().lang;
    let coordinator = &props.view.coordinator;
    // Newest first, deleted ones among them where their id puts them: a
    // snapshot deleted when a newer one subsumed it sits under that one.
    let mut storage: Vec<&engine::view::StoredView> = coordinator.storage.iter().collect();
    storage.sort_by_key(|s| std::cmp::Reverse(s.id));
    let crash = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            d.emit(Action::Intervene(Intervention::CrashJobmanager))
        })
    };
    let where_msg = if coordinator.in_jobmanager_memory {
        Msg::StorageInMemory
    } else {
        Msg::StorageInFiles
    };
    html! {
        <>
            <div class="storage-head">
                <p class="storage-head__where">{ lang.t(where_msg) }</p>
                <button type="button" class="text-button text-button--danger" id="crash-jobmanager"
                        title={lang.t(Msg::CrashJobmanagerHint)} onclick={crash}>
                    { lang.t(Msg::CrashJobmanager) }
                </button>
            </div>
            if storage.is_empty() {
                <p class="muted">{ lang.t(Msg::NoStorage) }</p>
            } else {
                <h3 class="section-title">{ lang.t(Msg::StorageRetained) }</h3>
                <ul class="storage-list">
                    { for storage.iter().map(|s| {
                        let dir = if s.kind.is_savepoint() { format!("savepoint-{}", s.id) } else { format!("chk-{}", s.id) };
                        let parts = metadata_parts(&s.metadata, lang);
                        html! {
                            <li class={classes!("stored", s.discarded.then_some("stored--discarded"), s.lost.then_some("stored--lost"))}
                                data-checkpoint={s.id.0.to_string()} data-lost={s.lost.then_some("true")}>
                                <div class="stored__head">
                                    <span class="stored__dir">{ format!("{dir}/_metadata") }</span>
                                    if s.lost {
                                        <span class="badge badge--lost">{ format!("✕ {}", lang.t(Msg::StorageLost)) }</span>
                                    } else if s.discarded {
                                        <span class="badge badge--discarded">{ format!("✕ {}", lang.t(Msg::StorageDiscarded)) }</span>
                                    }
                                    <span class="muted">{ lang.t(Msg::CompletedAt).replace("{t}", &s.completed_at.to_string()) }</span>
                                </div>
                                <p class="stored__line"><strong>{ format!("{dir}: ") }</strong>{ parts.join(", ") }</p>
                                { fully_finished(&s.metadata, lang) }
                                if s.started_from {
                                    <p class="muted stored__origin">{ x("stored_from_earlier", lang) }</p>
                                }
                                if let Some(claimed) = s.claimed {
                                    <p class="stored__claim" data-claimed={claimed.to_string()}>
                                        { x(if claimed { "stored_claimed" } else { "stored_unclaimed" }, lang) }
                                        if s.released {
                                            { format!(" · {}", x("stored_released", lang)) }
                                        }
                                    </p>
                                }
                                if !s.non_restored.is_empty() {
                                    <p class="stored__orphaned" data-non-restored={s.non_restored.join(",")}>
                                        { xf("stored_non_restored", lang, &[("uids", &s.non_restored.join(", "))]) }
                                    </p>
                                }
                                { channel_state(&props.job, &s.metadata, lang) }
                                if !s.files.is_empty() {
                                    <ul class="stored__files">
                                        { for s.files.iter().map(|f| html! {
                                            <li class={classes!("stored__file", f.shared.then_some("stored__file--shared"))}>
                                                { format!("{} · {} B", f.path, f.bytes) }
                                            </li>
                                        }) }
                                    </ul>
                                }
                                <details class="stored__tree">
                                    <summary>{ lang.t(Msg::StorageBrowse) }</summary>
                                    { tree(&s.metadata) }
                                </details>
                            </li>
                        }
                    }) }
                </ul>
            }
        </>
    }
}

/// The operators a `_metadata` stores as fully finished (`"fully_finished": true`:
/// every subtask had finished, no state), by uid.
pub fn fully_finished_operators(metadata: &Value) -> Vec<&str> {
    let Value::Object(ops) = metadata else {
        return Vec::new();
    };
    ops.iter()
        .filter(|(_, e)| e.get("fully_finished") == Some(&Value::Bool(true)))
        .map(|(uid, _)| uid.as_str())
        .collect()
}

/// Under `chk-n`: the operators it stores as fully finished, if any.
fn fully_finished(metadata: &Value, lang: crate::i18n::Lang) -> Html {
    let uids = fully_finished_operators(metadata).join(", ");
    if uids.is_empty() {
        return html! {};
    }
    html! {
        <p class="stored__finished" data-fully-finished={uids.clone()}>
            { xf("stored_fully_finished", lang, &[("uids", &uids)]) }
        </p>
    }
}

/// The in-flight records an unaligned checkpoint persisted as its channel state,
/// per channel (`events#0 → slow-sum#0`, or a sender's output `enrich#0 out0 →`)
/// with how many, from its `_metadata` (`<uid>.channels.<subtask>.in<i>|out<o>`).
pub fn channel_states(job: &JobView, metadata: &Value) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let Value::Object(ops) = metadata else {
        return out;
    };
    for (uid, entry) in ops {
        let Some(Value::Object(subtasks)) = entry.get("channels") else {
            continue;
        };
        let Some(op) = job.operators.iter().find(|o| &o.uid == uid) else {
            continue;
        };
        for (index, chans) in subtasks {
            let Ok(index) = index.parse::<u32>() else {
                continue;
            };
            let task = op.first_task + index;
            let name = |t: u32| {
                job.tasks
                    .get(t as usize)
                    .map_or_else(|| format!("{uid}#{index}"), |t| t.name.to_string())
            };
            let Value::Object(chans) = chans else {
                continue;
            };
            for (ch, recs) in chans {
                let n = recs.as_array().map_or(0, Vec::len);
                let label =
                    if let Some(i) = ch.strip_prefix("in").and_then(|i| i.parse::<u32>().ok()) {
                        let from = job
                            .channels
                            .iter()
                            .find(|c| c.to.0 == task && c.input.0 == i)
                            .map_or_else(|| ch.clone(), |c| name(c.from.0));
                        format!("{from} → {}", name(task))
                    } else {
                        format!("{} {ch} →", name(task))
                    };
                out.push((label, n));
            }
        }
    }
    out
}

/// Under `chk-n`: its persisted channel state, with the persisted ring the
/// channel's records carry (nothing for an aligned checkpoint).
fn channel_state(job: &JobView, metadata: &Value, lang: crate::i18n::Lang) -> Html {
    let chans = channel_states(job, metadata);
    let total: usize = chans.iter().map(|(_, n)| n).sum();
    if total == 0 {
        return html! {};
    }
    html! {
        <div class="stored__channels" data-channel-state={total.to_string()}>
            <p class="stored__channels-head">
                <span class="persisted-ring" aria-hidden="true"></span>
                { lang.t(Msg::StorageChannelState).replace("{n}", &total.to_string()) }
            </p>
            <ul class="stored__channel-list">
                { for chans.iter().filter(|(_, n)| *n > 0).map(|(label, n)| html! {
                    <li class="stored__channel" data-records={n.to_string()}>{ format!("{label} · {n}") }</li>
                }) }
            </ul>
        </div>
    }
}

/// `_metadata` as a browsable tree: objects nest (operator uid → offsets, keyed,
/// states, operator, channels → …), lists and scalars are leaves. Generic over the
/// JSON, so whatever the engine stores is shown without the page knowing its shape.
fn tree(value: &Value) -> Html {
    match value {
        Value::Object(map) if !map.is_empty() => html! {
            <ul class="tree">
                { for map.iter().map(|(k, v)| match v {
                    Value::Object(inner) if !inner.is_empty() => html! {
                        <li><details open={inner.len() <= 4}><summary class="tree__key">{ k.clone() }</summary>{ tree(v) }</details></li>
                    },
                    _ => html! { <li><span class="tree__key">{ format!("{k}: ") }</span><span class="tree__leaf">{ leaf(v) }</span></li> },
                }) }
            </ul>
        },
        other => html! { <span class="tree__leaf">{ leaf(other) }</span> },
    }
}

fn leaf(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Object(m) if m.is_empty() => "{}".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{channel_states, fully_finished_operators};
    use engine::runner::load;
    use engine::World;

    /// unaligned-backpressure's chk-1 lists the records it persisted, channel by
    /// channel, as many as the engine counts (39).
    #[test]
    fn chk_1_lists_its_persisted_channel_state() {
        let s = load("unaligned-backpressure").unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        while w.view().coordinator.storage.is_empty() {
            w.step().expect("chk-1 completes");
        }
        let v = w.view();
        let chk1 = &v.coordinator.storage[0];
        let chans = channel_states(&w.job_view(), &chk1.metadata);
        let total: usize = chans.iter().map(|(_, n)| n).sum();
        let counted = v.coordinator.history[0]
            .subtasks
            .values()
            .map(|s| s.persisted_records)
            .sum::<u64>();
        assert_eq!(total as u64, counted);
        assert!(total > 0);
        assert!(
            chans.iter().any(|(l, _)| l.contains(" → slow-sum#0")),
            "{chans:?}"
        );
    }

    /// broadcast-rules' final checkpoint is taken after the filter's and the
    /// sources' subtasks finished: the storage tab marks them fully finished, and
    /// not the sink that waits for that checkpoint to commit.
    #[test]
    fn the_final_checkpoint_marks_the_finished_operators() {
        let s = load("broadcast-rules").unwrap();
        let mut w = World::new(&s, s.seed).unwrap();
        // Each checkpoint as the tab shows it while it is retained.
        let mut shown = std::collections::BTreeMap::new();
        while w.step().is_some() {
            for c in &w.view().coordinator.storage {
                shown.entry(c.id).or_insert_with(|| c.metadata.clone());
            }
        }
        let (first, last) = (shown.values().next(), shown.values().last());
        let last = fully_finished_operators(last.expect("a final checkpoint"));
        assert!(last.contains(&"gate"), "{last:?}");
        assert!(!last.contains(&"out"), "{last:?}");
        assert!(fully_finished_operators(first.unwrap()).is_empty());
    }
}
