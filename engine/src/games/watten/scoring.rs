//! Card roles of a deal (spec §4.1), the strength key (§4.2, §4.3) and the play duties (§3.5).

use super::rules::{GuateOnSix, Options, Variant, WeliMode, weli};
use crate::cards::{Card, CardSet, Rank, Suit};

/// The roles of the cards in one deal, computed once Schlag and trump are known.
#[derive(Debug, Clone, PartialEq)]
pub struct Roles {
    /// Criticals, highest first.
    pub crit: &'static [Card],
    /// The criticals as a set.
    pub crit_set: CardSet,
    /// The Guate, if any.
    pub guate: Option<Card>,
    /// The Hauptschlag / Rechte, if any.
    pub rechte: Option<Card>,
    /// Blinde / Linke.
    pub linke: CardSet,
    /// Trump-suit cards (Weli included when it is a trump).
    pub trs: CardSet,
    /// The Weli belongs to no suit (`weli_mode=no_suit`).
    pub weli_no_suit: bool,
    /// The trump suit.
    pub trump: Suit,
    /// Every card with a role (criticals, Guate, Rechte, Linke, TRS): the rest are plain.
    pub roled: CardSet,
}

fn next_rank(rank: Rank) -> Rank {
    // R32: cyclic 7 → 8 → … → A → 7.
    if rank == Rank::Ace {
        Rank::Seven
    } else {
        Rank::from_value(rank.value() + 1).unwrap_or(Rank::Seven)
    }
}

impl Roles {
    /// Roles for Schlag `s` and trump `t` (§4.1). Bohemian: `s = None` (no Schlag, R44).
    pub fn new(options: &Options, s: Option<Rank>, t: Suit) -> Roles {
        let crit = options.criticals();
        let crit_set = CardSet::from_cards(crit.iter().copied());
        let pack = options.pack_set();
        let is_crit = |c: Card| crit_set.contains(c);
        let tyr = options.variant.tyrolean_family();
        let guate = match s {
            Some(s) if tyr && options.guate => {
                let g = if s == Rank::Six {
                    (options.guate_on_six_schlag == GuateOnSix::TrumpSeven)
                        .then(|| Card::new(Rank::Seven, t))
                } else {
                    Some(Card::new(next_rank(s), t))
                };
                g.filter(|g| !is_crit(*g))
            }
            _ => None,
        };
        let rechte = s
            .map(|s| {
                if s == Rank::Six {
                    weli()
                } else {
                    Card::new(s, t)
                }
            })
            .filter(|r| !is_crit(*r));
        let mut linke = CardSet::EMPTY;
        if let Some(s) = s
            && s != Rank::Six
        {
            for c in pack.of_rank(s).iter() {
                if Some(c) != rechte && !is_crit(c) {
                    linke.insert(c);
                }
            }
        }
        let weli_mode = if matches!(options.variant, Variant::Tyrolean | Variant::Blind) {
            options.weli_mode
        } else {
            WeliMode::Bells
        };
        // TRS: the trump suit's cards of the pack without the cards that have a higher role; the
        // Weli by its mode. Set arithmetic: this runs on every move.
        let mut roled = CardSet(crit_set.0 | linke.0);
        for card in guate.into_iter().chain(rechte) {
            roled.insert(card);
        }
        let mut trs = CardSet(pack.of_suit(t).0 & !roled.0);
        trs.remove(weli());
        let weli_in_trs = match weli_mode {
            WeliMode::AlwaysTrump => true,
            WeliMode::Bells => t == Suit::Diamonds,
            WeliMode::NoSuit => false,
        };
        if weli_in_trs && pack.contains(weli()) && !roled.contains(weli()) {
            trs.insert(weli());
        }
        roled.0 |= trs.0;
        Roles {
            crit,
            crit_set,
            guate,
            rechte,
            linke,
            trs,
            weli_no_suit: weli_mode == WeliMode::NoSuit,
            trump: t,
            roled,
        }
    }

    /// The Tyrolean trumps `T = TRS ∪ {G, R}` (§3.5.2).
    pub fn trumps(&self) -> CardSet {
        let mut t = self.trs;
        if let Some(g) = self.guate {
            t.insert(g);
        }
        if let Some(r) = self.rechte {
            t.insert(r);
        }
        t
    }

    /// True for a plain card (no role).
    pub fn is_plain(&self, c: Card) -> bool {
        !self.roled.contains(c)
    }

    /// The suit of a plain card (the Weli has none under `no_suit`).
    pub fn plain_suit(&self, c: Card) -> Option<Suit> {
        if self.weli_no_suit && c == weli() {
            None
        } else {
            c.suit()
        }
    }

    /// The strength key of a card in a trick led by `led` (§4.2); `None` = cannot win.
    pub fn key(&self, c: Card, led: Card, is_led: bool) -> Option<(u8, u8)> {
        let rank = c.rank().map_or(0, Rank::value);
        // Most cards are plain: one set test instead of the role checks (every trick, every card).
        if !self.roled.contains(c) {
            if is_led {
                return Some((1, rank));
            }
            return match self.plain_suit(led) {
                Some(suit) if self.is_plain(led) && self.plain_suit(c) == Some(suit) => {
                    Some((1, rank))
                }
                _ => None,
            };
        }
        if self.crit_set.contains(c)
            && let Some(i) = self.crit.iter().position(|x| *x == c)
        {
            return Some((6, (self.crit.len() - i) as u8));
        }
        if Some(c) == self.guate {
            return Some((5, 0));
        }
        if Some(c) == self.rechte {
            return Some((4, 0));
        }
        if self.linke.contains(c) {
            return Some((3, 0));
        }
        // A roled card that is none of the above is in TRS.
        Some((2, rank))
    }

    /// Index of the winning play of a complete trick (first-played wins ties, R11).
    pub fn winner(&self, plays: &[(usize, Card)]) -> usize {
        let Some(&(_, led)) = plays.first() else {
            return 0;
        };
        crate::common::trick::winner_by_strength(plays, |i, c| self.key(c, led, i == 0))
    }

    /// The key of the card currently winning an incomplete trick.
    pub fn current_best(&self, plays: &[(usize, Card)]) -> Option<(u8, u8)> {
        let &(_, led) = plays.first()?;
        let w = self.winner(plays);
        plays.get(w).and_then(|(_, c)| self.key(*c, led, w == 0))
    }

    /// Bohemian effective suit: `None` = trump (critical or trump suit).
    pub fn effective_suit(&self, c: Card) -> Option<Suit> {
        if self.crit_set.contains(c) || self.trs.contains(c) {
            None
        } else {
            c.suit()
        }
    }

    /// The cards of `hand` a follower may play (§3.5). `trick_no` counts completed tricks;
    /// `bound` is false for the blind seats of Blind Watten.
    pub fn legal_follow(
        &self,
        options: &Options,
        hand: CardSet,
        plays: &[(usize, Card)],
        trick_no: usize,
        bound: bool,
    ) -> CardSet {
        let Some(&(_, led)) = plays.first() else {
            return hand;
        };
        match options.variant {
            Variant::Bavarian | Variant::Austrian | Variant::Carinthian => {
                // §3.5.1, R9, R10: only trick 1 led with the Hauptschlag.
                if trick_no != 0 || Some(led) != self.rechte {
                    return hand;
                }
                if plays[1..].iter().any(|(_, c)| self.crit_set.contains(*c)) {
                    return hand;
                }
                let f = CardSet(hand.0 & (self.trs.0 | self.linke.0));
                if f.is_empty() {
                    hand
                } else {
                    CardSet(f.0 | (hand.0 & self.crit_set.0))
                }
            }
            Variant::Tyrolean | Variant::Kritische | Variant::Blind => {
                let t = self.trumps();
                if !bound || !t.contains(led) {
                    return hand;
                }
                let mut forceable = t;
                if options.rechte_exempt
                    && let Some(r) = self.rechte
                {
                    forceable.remove(r);
                }
                if hand.0 & forceable.0 == 0 {
                    hand
                } else {
                    CardSet(hand.0 & (t.0 | self.linke.0 | self.crit_set.0))
                }
            }
            Variant::Bohemian => {
                // §3.7.3: follow the effective suit, beat if possible.
                // The cards of the led effective suit, by set arithmetic (see `effective_suit`).
                let trumps = self.crit_set.0 | self.trs.0;
                let same = match self.effective_suit(led) {
                    None => CardSet(hand.0 & trumps),
                    Some(suit) => CardSet(hand.of_suit(suit).0 & !trumps),
                };
                let s = if same.is_empty() { hand } else { same };
                let best = self.current_best(plays);
                let beaters: CardSet = s
                    .iter()
                    .filter(|c| self.key(*c, led, false) > best)
                    .collect();
                if beaters.is_empty() { s } else { beaters }
            }
        }
    }
}
