//! The page's regions, one file each.
//!
//! # Layout
//! - [`masthead`]: logo, title and the 中文 / English switch.
//! - [`toolbar`]: the transport bar (scenario, step, play, speed, timeline); a placeholder until scenarios load.
//! - [`stage`]: the SVG canvas where the job graph will animate; an empty state for now.
//! - [`legend`]: what each colour and shape on the stage means.
//! - [`side_panel`]: tabs for the coordinator, storage, sink and narration.
//! - [`icons`]: inline SVG icons (no icon font, no CDN).

pub mod icons;
pub mod legend;
pub mod masthead;
pub mod side_panel;
pub mod stage;
pub mod toolbar;

pub use legend::Legend;
pub use masthead::{LangSwitch, Masthead};
pub use side_panel::SidePanel;
pub use stage::Stage;
pub use toolbar::Toolbar;
