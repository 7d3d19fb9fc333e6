//! The drill in class mode (docs/classroom.md, "Votes"): the lecturer asks the
//! class an exercise from its card ([`super::ask::AskTheClass`]), one variant for everyone;
//! each phone generates the same exercise from its kind and variant and answers
//! its blanks on the vote's sheet ([`DrillVote`]); the server's engine judges
//! each answer, and after the reveal every screen shows right and wrong and the
//! spread of the answers, and each phone its own marks. The wording is the
//! presenter's file (`class_drill_…`) and the drill's own (`b_…`, `right`, `wrong`).

use std::rc::Rc;

use engine::drill::{self, Answer, Exercise, Kind};
use yew::prelude::*;

use super::exercise::{answer_of, blank_label, blank_view, make, question_text, shown};
use super::exercise::{Entries, Entry};
use super::{breakable, label_text, w, wf};
use crate::classroom::live::Live;
use crate::classroom::{DrillRef, Round};
use crate::hooks::use_lang;
use crate::i18n::Lang;
use crate::presenter::notes::label;

/// The exercise of a class's drill vote, made here as the drill makes it:
/// `None` while its lesson's files and the drill's wording arrive.
#[hook]
fn use_exercise(d: &DrillRef) -> Option<Result<Rc<Exercise>, String>> {
    let made = use_state(|| None::<Result<Rc<Exercise>, String>>);
    {
        let made = made.clone();
        use_effect_with(d.clone(), move |d| {
            let Some(kind) = Kind::from_key(&d.kind) else {
                made.set(Some(Err(format!("drill.kind: {}", d.kind))));
                return;
            };
            let v = d.variant;
            let mut files = crate::data::lesson_files(kind.lesson());
            files.push(super::WORDS.file().to_string());
            let finish = move |ok: Result<(), String>| {
                made.set(Some(ok.and_then(|_| make(kind, v))));
            };
            if files.iter().all(|f| crate::data::available(f)) {
                finish(Ok(()));
            } else {
                wasm_bindgen_futures::spawn_local(async move {
                    finish(crate::data::ensure(files).await.map_err(|e| e.to_string()));
                });
            }
        });
    }
    (*made).clone()
}

/// Properties of [`DrillVote`].
#[derive(Properties, PartialEq)]
pub struct DrillVoteProps {
    /// The class.
    pub live: Live,
}

/// The class's drill vote on every screen: the exercise's question, on a
/// student's phone its blanks (large chips, a numeric field) and *Send* while
/// the round is open and its own marks once revealed, and each revealed
/// round's right, wrong and spread.
#[component]
pub fn DrillVote(props: &DrillVoteProps) -> Html {
    let lang = use_lang().lang;
    let l = &props.live;
    let vote = l.class.as_ref().and_then(|c| c.vote.clone());
    let fallback = DrillRef {
        kind: String::new(),
        variant: 0,
    };
    let d = vote
        .as_ref()
        .and_then(|v| v.drill.clone())
        .unwrap_or(fallback);
    let made = use_exercise(&d);
    let hidden = use_state_eq(|| None::<(String, u32)>);
    let (Some(vote), Some(current)) = (vote.as_ref(), vote.as_ref().and_then(|v| v.rounds.last()))
    else {
        return html! {};
    };
    let here = (vote.question.clone(), current.round);
    if l.student && *hidden == Some(here.clone()) {
        return html! {};
    }
    let ex = made.as_ref().and_then(|m| m.as_ref().ok()).cloned();
    let ask = match &made {
        Some(Ok(ex)) => question_text(ex, lang),
        Some(Err(e)) => e.clone(),
        None => w("preparing", lang),
    };
    let sent = l
        .answers
        .iter()
        .find(|(q, r, _)| *q == vote.question && *r == current.round)
        .map(|(_, _, a)| a.clone());
    let answered = label("class_answered", lang).replace("{n}", &current.answered.to_string());
    let sheet = l.student.then(|| match (&ex, current.open) {
        (Some(ex), true) => html! {
            <AnswerSheet key={vote.question.clone()} exercise={ex.clone()} question={vote.question.clone()}
                         round={current.round} answer={l.answer.clone()} />
        },
        (Some(ex), false) if current.judged.as_ref().is_some_and(|j| j.right.is_some()) => {
            marks(ex, sent.as_deref(), lang)
        }
        _ => html! {},
    });
    let status = match (&sent, current.open, l.student) {
        (Some(a), true, true) => {
            label("class_drill_sent", lang).replace("{answer}", &a.join(" · "))
        }
        (_, false, _) if current.judged.is_none() => {
            format!("{} · {}", label("class_closed", lang), answered)
        }
        _ => answered,
    };
    let revealed: Vec<&Round> = vote.rounds.iter().filter(|r| r.judged.is_some()).collect();
    let names = ex.as_ref().map_or_else(String::new, |ex| {
        ex.blanks
            .iter()
            .map(|b| blank_label(&b.name, lang))
            .collect::<Vec<_>>()
            .join(" · ")
    });
    let hide = Callback::from(move |_: MouseEvent| hidden.set(Some(here.clone())));
    html! {
        <section class={classes!("class-vote", "class-vote--drill", l.student.then_some("class-vote--student"))} id="class-vote"
                 data-question={vote.question.clone()} data-round={current.round.to_string()}
                 data-open={current.open.to_string()} data-answered={current.answered.to_string()}
                 data-kind={d.kind.clone()} data-variant={d.variant.to_string()}
                 aria-label={label("class_vote", lang)}>
            <p class="class-vote__ask">
                <strong>{ label("class_vote", lang) }</strong>{ " " }{ breakable(&ask) }
            </p>
            { sheet.unwrap_or_default() }
            <p class="class-vote__status" id="class-vote-status" aria-live="polite">{ status }</p>
            if let Some(e) = l.error.as_ref().filter(|_| l.student) {
                <p class="class-vote__error" role="alert">{ e.clone() }</p>
            }
            if !revealed.is_empty() {
                <div class="class-vote__histograms">
                    { for revealed.iter().map(|r| histogram(r, &names, lang)) }
                </div>
            }
            if l.student && !current.open {
                <button type="button" class="text-button" id="class-drill-hide" onclick={hide}>{ label("class_drill_hide", lang) }</button>
            }
        </section>
    }
}

/// Properties of [`AnswerSheet`].
#[derive(Properties, PartialEq)]
struct AnswerSheetProps {
    exercise: Rc<Exercise>,
    question: String,
    round: u32,
    answer: Callback<crate::classroom::live::DrillAnswer>,
}

/// A phone's blanks of the class's exercise and *Send*: each answer read as the
/// drill reads it, then posted as its text (the server judges it again).
#[component]
fn AnswerSheet(props: &AnswerSheetProps) -> Html {
    let lang = use_lang().lang;
    let ex = props.exercise.clone();
    let entries = {
        let n = ex.blanks.len();
        use_reducer_eq(move || Entries(vec![Entry::default(); n]))
    };
    let problem = use_state_eq(|| None::<String>);
    let onsubmit = {
        let (ex, entries, problem) = (ex.clone(), entries.clone(), problem.clone());
        let (answer, question, round) = (props.answer.clone(), props.question.clone(), props.round);
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let texts: Result<Vec<String>, String> = ex
                .blanks
                .iter()
                .zip(entries.0.iter())
                .map(|(b, e)| answer_of(b, e, lang).map(|a| a.to_string()))
                .collect();
            match texts {
                Ok(t) => {
                    problem.set(None);
                    answer.emit((question.clone(), round, t));
                }
                Err(e) => problem.set(Some(e)),
            }
        })
    };
    html! {
        <form class="class-drill__form" id="class-drill-form" {onsubmit}>
            { for ex.blanks.iter().enumerate().map(|(i, b)| blank_view(i, b, &entries, lang)) }
            if let Some(p) = &*problem {
                <p class="class-vote__error" role="alert">{ p.clone() }</p>
            }
            <button type="submit" class="text-button text-button--primary class-drill__send" id="class-drill-send">
                { label("class_drill_send", lang) }
            </button>
        </form>
    }
}

/// A phone's own answer marked, blank by blank, with the engine's answer.
fn marks(ex: &Exercise, sent: Option<&[String]>, lang: Lang) -> Html {
    let Some(sent) = sent else {
        return html! { <p class="class-drill__marks" id="class-drill-marks" data-right="none">{ label("class_drill_none", lang) }</p> };
    };
    let given: Option<Vec<Answer>> = ex
        .blanks
        .iter()
        .zip(sent)
        .map(|(b, t)| drill::parse(b, t).ok())
        .collect();
    let Some(marked) = given.and_then(|g| drill::check(ex, &g).ok()) else {
        return html! {};
    };
    let all = marked.iter().all(|m| m.right);
    html! {
        <div class="class-drill__marks" id="class-drill-marks" data-right={all.to_string()}>
            <p><strong>{ label("class_drill_yours", lang) }</strong></p>
            <ul>
                { for marked.iter().map(|m| {
                    let blank = blank_label(&m.blank, lang);
                    let (given, expected) = (shown(&m.given, lang), shown(&m.expected, lang));
                    let text = if m.right {
                        wf("right", lang, &[("blank", &blank), ("given", &given)])
                    } else {
                        wf("wrong", lang, &[("blank", &blank), ("given", &given), ("expected", &expected)])
                    };
                    html! {
                        <li class={if m.right { "is-right" } else { "is-wrong" }} data-blank={m.blank.clone()}>{ breakable(&text) }</li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// An answer as the server spreads it (blanks joined by " · ", values by ", "),
/// with the labels worded.
fn worded(answer: &str, lang: Lang) -> String {
    answer
        .split(" · ")
        .map(|blank| {
            blank
                .split(", ")
                .map(|l| label_text(l, lang))
                .collect::<Vec<_>>()
                .join(w("list_sep", lang).as_str())
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One revealed drill round: right and wrong as two bars, then the answers
/// given (`names`: the blanks they answer), most frequent first, the right ones
/// marked with a tick and a word.
fn histogram(r: &Round, names: &str, lang: Lang) -> Html {
    let Some(j) = r.judged.as_ref() else {
        return html! {};
    };
    let total: u32 = j.spread.iter().map(|s| s.count).sum();
    let most = j
        .spread
        .iter()
        .map(|s| s.count)
        .chain(j.right)
        .chain(j.wrong)
        .max()
        .unwrap_or(0)
        .max(1);
    let width = |n: u32| format!("width: {:.0}%", f64::from(n) * 100.0 / f64::from(most));
    let row = |id: String, right: bool, name: Html, n: u32, mark: Option<String>| {
        html! {
            <div class={classes!("class-hist__row", "class-hist__row--drill", right.then_some("class-hist__row--right"))} id={id}>
                <span class="class-hist__answer">{ name }</span>
                <span class="class-hist__track"><span class="class-hist__bar" style={width(n)}></span></span>
                <span class="class-hist__count">{ n.to_string() }</span>
                if let Some(m) = mark {
                    <span class="class-hist__mark">{ m }</span>
                } else {
                    <span></span>
                }
            </div>
        }
    };
    let right_word = format!("✓ {}", label("class_right", lang));
    let wrong_word = format!("✗ {}", label("class_wrong", lang));
    html! {
        <figure class="class-hist class-hist--drill" id={format!("class-hist-{}", r.round)} data-round={r.round.to_string()}
                data-right={j.right.map(|n| n.to_string())} data-wrong={j.wrong.map(|n| n.to_string())}
                data-spread={j.spread.iter().map(|s| format!("{}={}{}", s.answer, s.count, if s.right == Some(true) { "✓" } else { "" })).collect::<Vec<_>>().join("|")}>
            <figcaption>{ label("class_round", lang).replace("{n}", &r.round.to_string()) }
                { " · " }{ label("class_answered", lang).replace("{n}", &total.to_string()) }</figcaption>
            if let (Some(right), Some(wrong)) = (j.right, j.wrong) {
                { row(format!("class-hist-{}-right", r.round), true, html! { right_word.clone() }, right, None) }
                { row(format!("class-hist-{}-wrong", r.round), false, html! { wrong_word }, wrong, None) }
            }
            <p class="class-hist__sub">{ label("class_drill_answers", lang).replace("{blanks}", names) }</p>
            { for j.spread.iter().enumerate().map(|(i, s)| {
                let name = if s.other { label("class_drill_other", lang) } else { worded(&s.answer, lang) };
                let right = s.right == Some(true);
                row(format!("class-hist-{}-a{}", r.round, i), right, breakable(&name), s.count,
                    right.then(|| right_word.clone()))
            }) }
        </figure>
    }
}
