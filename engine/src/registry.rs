//! The one list of games. Adding a family is one line in `families()`; the API, the arena, the
//! catalog and the conformance tests all iterate this list.

use crate::erased::{Game, PresetGame};
use std::sync::OnceLock;

fn families() -> Vec<Vec<Box<dyn Game>>> {
    vec![
        // One line per family: every preset of the family becomes its own game id.
        PresetGame::<crate::games::twenty_two::TwentyTwo>::all(),
        PresetGame::<crate::games::sloppy_seconds::SloppySeconds>::all(),
        PresetGame::<crate::games::marglia::Marglia>::all(),
        PresetGame::<crate::games::marglia::Maniglia>::all(),
        PresetGame::<crate::games::watten::Watten>::all(),
        PresetGame::<crate::games::chinese_ten::ChineseTen>::all(),
        PresetGame::<crate::games::basra::Basra>::all(),
        PresetGame::<crate::games::taihe_abao::TaiheAbao>::all(),
        PresetGame::<crate::games::tjak_mat_tchi_ki::TjakMatTchiKi>::all(),
        PresetGame::<crate::games::trump_crew::TrumpCrew>::all(),
        PresetGame::<crate::games::bird_dog::BirdDog>::all(),
    ]
}

/// Every published game id, families in registry order, presets in family order.
pub fn games() -> &'static [Box<dyn Game>] {
    static GAMES: OnceLock<Vec<Box<dyn Game>>> = OnceLock::new();
    GAMES.get_or_init(|| families().into_iter().flatten().collect())
}

/// The game with this id.
pub fn find(id: &str) -> Option<&'static dyn Game> {
    games()
        .iter()
        .find(|g| g.info().id == id)
        .map(|g| g.as_ref())
}
