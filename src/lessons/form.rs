//! The form editor: the common changes to the running scenario
//! ([`editor::fields`]), each applied as soon as it is made — the run is rebuilt
//! from the edited document — or refused with the message naming the field.

use serde_json::Value;
use yew::prelude::*;

use crate::components::input::input_value;
use crate::hooks::use_lang;
use crate::lessons::editor::{self, Field, Kind};
use crate::lessons::wording::t;

/// Properties of [`ScenarioForm`].
#[derive(Properties, PartialEq)]
pub struct ScenarioFormProps {
    /// The scenario document being run.
    pub doc: Value,
    /// Receives a valid edited document's JSON.
    pub on_apply: Callback<String>,
}

/// One field's change to the document, from the text typed or chosen.
type Edit = std::rc::Rc<dyn Fn(&mut Value, &str) -> Result<(), editor::EditError>>;

/// See the module documentation.
#[component]
pub fn ScenarioForm(props: &ScenarioFormProps) -> Html {
    let lang = use_lang().lang;
    let error = use_state_eq(|| None::<String>);
    let doc = &props.doc;

    let edit = |change: Edit| {
        let doc = doc.clone();
        let on_apply = props.on_apply.clone();
        let error = error.setter();
        Callback::from(move |e: Event| {
            let Some(raw) = input_value(&e) else { return };
            let mut next = doc.clone();
            match change(&mut next, &raw).and_then(|_| editor::validate(&next)) {
                Ok(json) => {
                    error.set(None);
                    on_apply.emit(json);
                }
                Err(why) => error.set(Some(why.to_string())),
            }
        })
    };

    let row = |f: &Field, i: usize| {
        let id = format!("editor-field-{i}");
        let shown = editor::shown(doc, f);
        let f2 = f.clone();
        let onchange = edit(std::rc::Rc::new(move |d: &mut Value, raw: &str| {
            editor::set(d, &f2, raw)
        }));
        let label = if f.subject.is_empty() {
            t(f.label, lang).to_string()
        } else {
            format!("{} · {}", f.subject, t(f.label, lang))
        };
        let input = match f.kind {
            Kind::Count { .. } => html! {
                <input type="number" min="0" step="1" class="editor__input" id={id.clone()} value={shown}
                       data-field={editor::describe(f)} {onchange} />
            },
            Kind::Flag => html! {
                <input type="checkbox" id={id.clone()} checked={shown == "true"} data-field={editor::describe(f)} {onchange} />
            },
            Kind::Choice(choices) => html! {
                <select class="select" id={id.clone()} data-field={editor::describe(f)} {onchange}>
                    { for choices.iter().map(|c| html! { <option value={*c} selected={*c == shown}>{ *c }</option> }) }
                </select>
            },
        };
        html! {
            <div class="editor__row">
                <label for={id}>{ label }</label>
                { input }
            </div>
        }
    };

    let on_crashes = edit(std::rc::Rc::new(editor::set_crashes));
    html! {
        <div class="editor" id="editor" role="region" aria-label={t("editor_heading", lang)}>
            <h2 class="editor__heading">{ t("editor_heading", lang) }</h2>
            if let Some(why) = &*error {
                <p class="lesson-bar__error editor-error" role="alert">
                    <strong>{ t("editor_error", lang) }</strong>{ " " }{ why.clone() }
                </p>
            }
            <div class="editor__grid">
                { for editor::fields(doc).iter().enumerate().map(|(i, f)| row(f, i)) }
                <div class="editor__row editor__row--wide">
                    <label for="editor-crashes">{ t("editor_crashes", lang) }</label>
                    <input type="text" class="editor__input" id="editor-crashes" value={editor::crashes(doc)}
                           aria-describedby="editor-crashes-hint" onchange={on_crashes} />
                    <span class="editor__hint" id="editor-crashes-hint">{ t("editor_crashes_hint", lang) }</span>
                </div>
            </div>
        </div>
    }
}
