//! Rescaling made visible: for a job restored from a snapshot
//! of an earlier job (savepoint-rescale), a strip of the key groups 0 … max
//! parallelism − 1 coloured by owning subtask, before and after the restore, the
//! restored keys at their key groups, and which source subtask reads which
//! partition before and after (the offsets' even split, or union).
//!
//! Everything comes from the engine's own assignment
//! ([`engine::view::key_groups::rescale`]); the page only draws it. It sits in
//! the caption bar under the graph, opened with its button.

use std::rc::Rc;

use engine::view::key_groups::{KeyGroupStrip, PartitionSplit, RescaleView};
use engine::view::DistributionMode;
use yew::prelude::*;

use crate::hooks::use_lang;
use crate::i18n::extras::{x, xf};
use crate::i18n::Lang;

/// Properties of [`KeyGroupStrips`].
#[derive(Properties, PartialEq)]
pub struct KeyGroupStripsProps {
    /// The rescale of this run.
    pub rescale: Rc<RescaleView>,
    /// Shown (else only the button).
    pub open: bool,
    /// Shows or hides the strips.
    pub on_toggle: Callback<bool>,
}

/// Contiguous runs of one owner: `(owner, first, last)`.
fn ranges(owners: &[u32]) -> Vec<(u32, u32, u32)> {
    let mut out: Vec<(u32, u32, u32)> = Vec::new();
    for (kg, o) in owners.iter().enumerate() {
        match out.last_mut() {
            Some((last, _, to)) if last == o => *to = kg as u32,
            _ => out.push((*o, kg as u32, kg as u32)),
        }
    }
    out
}

fn pct(v: f64) -> String {
    format!("{v:.3}%")
}

/// One strip: the key groups coloured by owner, each range labelled.
fn strip(lang: Lang, uid: &str, label: String, owners: &[u32], which: &str, marks: Html) -> Html {
    let n = owners.len().max(1) as f64;
    let runs = ranges(owners);
    html! {
        <div class="strip-row" data-strip={which.to_string()}>
            <span class="strip-row__name">{ label }</span>
            <svg class="strip-row__plot" width="100%" height="20" aria-hidden="true">
                { for owners.iter().enumerate().map(|(kg, o)| html! {
                    <rect class={classes!("kg", format!("kg--{}", o % 4))} data-kg={kg.to_string()} data-owner={o.to_string()}
                          x={pct(kg as f64 * 100.0 / n)} width={pct(100.0 / n + 0.02)} y="0" height="20" />
                }) }
                { for runs.iter().map(|(o, from, to)| html! {
                    <>
                        <line class="kg__edge" x1={pct(*from as f64 * 100.0 / n)} x2={pct(*from as f64 * 100.0 / n)} y1="0" y2="20" />
                        <text class="kg__label" x={pct((*from as f64 + *to as f64 + 1.0) * 50.0 / n)} y="15" text-anchor="middle">
                            { format!("{uid}#{o}  {from}–{to}") }
                        </text>
                    </>
                }) }
                { marks }
            </svg>
            <span class="visually-hidden">
                { runs.iter().map(|(o, from, to)| xf("strip_range", lang, &[("task", &format!("{uid}#{o}")), ("from", &from.to_string()), ("to", &to.to_string())])).collect::<Vec<_>>().join("; ") }
            </span>
        </div>
    }
}

/// The restored keys with their key group and new owner, for the heading line.
fn keys_list(s: &KeyGroupStrip) -> Html {
    html! {
        <span class="strips__keys">
            { for s.keys.iter().map(|(k, kg)| {
                let owner = s.after.get(*kg as usize).copied().unwrap_or(0);
                html! {
                    <span class={classes!("kg__key", format!("chip--{}", owner % 4))} data-key={k.clone()}
                          data-kg={kg.to_string()} data-owner={owner.to_string()}>
                        { format!("{k} → {kg}") }
                    </span>
                }
            }) }
        </span>
    }
}

/// Small marks on the "after" strip where the restored keys' key groups are.
fn key_marks(s: &KeyGroupStrip) -> Html {
    let n = s.max_parallelism.max(1) as f64;
    html! {
        <>{ for s.keys.iter().map(|(k, kg)| html! {
            <text class="kg__pin" x={pct((*kg as f64 + 0.5) * 100.0 / n)} y="12" text-anchor="middle">
                <title>{ k.clone() }</title>{ "▼" }
            </text>
        }) }</>
    }
}

/// Which source subtask reads which partitions, before → after.
fn split(lang: Lang, s: &PartitionSplit) -> Html {
    let mode = x(
        match s.mode {
            DistributionMode::Union => "split_union",
            _ => "split_even",
        },
        lang,
    );
    let chips = |lists: &[Vec<u32>], which: &str| -> Html {
        html! { <>{ for lists.iter().enumerate().map(|(i, ps)| {
            let text = if ps.is_empty() {
                x("split_nothing", lang)
            } else {
                format!("{ps:?}")
            };
            html! {
                <span class={classes!("split__chip", format!("chip--{}", i % 4))} data-split={which.to_string()}
                      data-task={format!("{}#{i}", s.uid)} data-partitions={format!("{ps:?}")}>
                    { format!("#{i} ") }{ text }
                </span>
            }
        }) }</> }
    };
    html! {
        <p class="split" data-source={s.uid.clone()}>
            <span class="split__heading">{ xf("split_heading", lang, &[("op", &s.uid), ("mode", &mode)]) }</span>
            <span class="split__when">{ xf("strip_before", lang, &[("p", &s.before.len().to_string())]) }</span>
            { chips(&s.before, "before") }
            <span class="split__arrow" aria-hidden="true">{ "→" }</span>
            <span class="split__when">{ xf("strip_after", lang, &[("p", &s.after.len().to_string())]) }</span>
            { chips(&s.after, "after") }
        </p>
    }
}

/// The strips; see the module documentation.
#[component]
pub fn KeyGroupStrips(props: &KeyGroupStripsProps) -> Html {
    let lang = use_lang().lang;
    let open = props.open;
    let r = &props.rescale;
    html! {
        <>
            <button type="button" class="text-button chart-toggle" id="strip-toggle"
                    aria-pressed={open.to_string()} aria-controls="key-group-strips"
                    title={x("strip_show_hint", lang)}
                    onclick={props.on_toggle.reform(move |_: MouseEvent| !open)}>
                { "▤ " }{ x("strip_show", lang) }
            </button>
            if open {
                <section class="strips" id="key-group-strips" data-checkpoint={r.checkpoint.to_string()}>
                    { for r.keyed.iter().map(|s| html! {
                        <div class="strips__op" data-op={s.uid.clone()} data-max-parallelism={s.max_parallelism.to_string()}>
                            <h2 class="strips__heading">
                                { xf("strip_heading", lang, &[("op", &s.uid), ("last", &(s.max_parallelism - 1).to_string())]) }
                            </h2>
                            { keys_list(s) }
                            if let Some(p) = s.before_parallelism {
                                { strip(lang, &s.uid, xf("strip_before", lang, &[("p", &p.to_string())]), &s.before, "before", html! {}) }
                            }
                            { strip(lang, &s.uid, xf("strip_after", lang, &[("p", &s.after_parallelism.to_string())]), &s.after, "after", key_marks(s)) }
                            <span class="visually-hidden">
                                { s.keys.iter().map(|(k, kg)| xf("strip_key", lang, &[("key", k), ("kg", &kg.to_string())])).collect::<Vec<_>>().join("; ") }
                            </span>
                        </div>
                    }) }
                    { for r.sources.iter().map(|s| split(lang, s)) }
                </section>
            }
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn ranges_are_contiguous_runs_of_one_owner() {
        assert_eq!(
            ranges(&[0, 0, 1, 1, 1, 2]),
            vec![(0, 0, 1), (1, 2, 4), (2, 5, 5)]
        );
        assert!(ranges(&[]).is_empty());
    }
}
