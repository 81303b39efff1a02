import Foundation

/// A record's link (and review row) before a relink moved it, kept for undo.
struct LinkSnapshot: Codable, Equatable {
    var transactionID: Int64
    var score: Double
    var reasons: String
    var decidedBy: String
    var reviewCandidates: String?
    /// `link.evidence` (absent in snapshots written before the column existed: the migration
    /// that added it filled them in).
    var evidence: String?
}
