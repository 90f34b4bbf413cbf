//! Rating updates against hand-computed Weng-Lin (Bradley-Terry, full pairing) values, and the
//! sides of a match from its ranking and teams.

use arena::ratings::{Rating, Side, sides_of, update};

const FRESH: Rating = Rating {
    mu: 25.0,
    sigma: 25.0 / 3.0,
};

fn r(mu: f64, sigma: f64) -> Rating {
    Rating { mu, sigma }
}

fn check(sides: &[(Vec<Rating>, usize)], expected: &[&[(f64, f64)]]) {
    let input: Vec<Side> = sides
        .iter()
        .map(|(members, place)| Side {
            members: members.clone(),
            place: *place,
        })
        .collect();
    let output = update(&input);
    assert_eq!(output.len(), expected.len());
    for (got_side, want_side) in output.iter().zip(expected) {
        for (got, (mu, sigma)) in got_side.iter().zip(want_side.iter()) {
            assert!((got.mu - mu).abs() < 1e-9, "mu {} != {mu}", got.mu);
            assert!(
                (got.sigma - sigma).abs() < 1e-9,
                "sigma {} != {sigma}",
                got.sigma
            );
        }
    }
}

// Hand computation, two fresh players: c² = 2σ² + 2β² = 173.61, c = 13.176; p = 0.5;
// Δμ = σ²/c · (1 − 0.5) = 2.63523; η = (σ/c)·(σ²/c²)·p(1−p) = 0.063246; σ' = σ·√(1 − η).
#[test]
fn ratings_match_hand_computed_values() {
    // One-on-one, a win.
    check(
        &[(vec![FRESH], 1), (vec![FRESH], 2)],
        &[
            &[(27.63523138347365, 8.065506316323548)],
            &[(22.36476861652635, 8.065506316323548)],
        ],
    );
    // One-on-one, a tie: means stay, uncertainty shrinks.
    check(
        &[(vec![FRESH], 1), (vec![FRESH], 1)],
        &[&[(25.0, 8.065506316323548)], &[(25.0, 8.065506316323548)]],
    );
    // Free-for-all of three.
    check(
        &[(vec![FRESH], 1), (vec![FRESH], 2), (vec![FRESH], 3)],
        &[
            &[(30.2704627669473, 7.788474807872567)],
            &[(25.0, 7.788474807872567)],
            &[(19.7295372330527, 7.788474807872567)],
        ],
    );
    // Two teams of two.
    check(
        &[(vec![FRESH, FRESH], 1), (vec![FRESH, FRESH], 2)],
        &[
            &[
                (26.964185503295965, 8.17755635771097),
                (26.964185503295965, 8.17755635771097),
            ],
            &[
                (23.035814496704035, 8.17755635771097),
                (23.035814496704035, 8.17755635771097),
            ],
        ],
    );
    // An upset: the weaker, uncertain player wins.
    check(
        &[(vec![r(30.0, 2.0)], 2), (vec![r(20.0, 6.0)], 1)],
        &[
            &[(29.647967984989116, 1.9977444987699795)],
            &[(23.168288135097963, 5.814541169763025)],
        ],
    );
}

#[test]
fn display_is_mu_minus_three_sigma() {
    assert!((FRESH.display()).abs() < 1e-12);
    assert!((r(30.0, 2.0).display() - 24.0).abs() < 1e-12);
}

#[test]
fn sides_follow_teams_or_single_seats() {
    assert_eq!(
        sides_of(&[vec![1], vec![0, 2]], None),
        vec![(vec![1], 1), (vec![0], 2), (vec![2], 2)]
    );
    assert_eq!(
        sides_of(&[vec![0, 2], vec![1, 3]], Some(&[vec![0, 2], vec![1, 3]])),
        vec![(vec![0, 2], 1), (vec![1, 3], 2)]
    );
}
