#pragma once
// Scores for judges and classifiers: ROC-AUC as scikit-learn 1.2 computes it
// (ties by trapezoid), accuracy, balanced accuracy, binary F1, pairwise
// preference accuracy and Winoground-style text/audio/group scores.
#include <string>
#include <vector>

namespace aeval::metrics {

// Binary labels from any two-valued labelling: the greater label (numeric or
// lexicographic, as numpy sorts them) is positive. Throws aeval::Error (data)
// with scikit-learn 1.2's message when only one class is present and when
// there are more than two.
std::vector<bool> positive_labels(const std::vector<std::string>& labels);
std::vector<bool> positive_labels(const std::vector<double>& labels);

// sklearn.metrics.roc_auc_score for binary labels (positive = true).
double roc_auc(const std::vector<bool>& positive, const std::vector<double>& scores);

double accuracy(const std::vector<int>& truth, const std::vector<int>& predicted);
// Mean recall over the classes present in `truth` (sklearn balanced_accuracy_score).
double balanced_accuracy(const std::vector<int>& truth, const std::vector<int>& predicted);
// Binary F1 of class `positive`; 0 when undefined (sklearn's zero_division default).
double f1(const std::vector<int>& truth, const std::vector<int>& predicted, int positive = 1);

// Fraction of pairs where the higher score belongs to the preferred item;
// a tie counts `tie_credit` (0.5 by default, 0 to count ties as wrong).
double pairwise_preference_accuracy(const std::vector<double>& preferred_scores,
                                    const std::vector<double>& other_scores, double tie_credit = 0.5);

// One Winoground-style item: s[i][j] = score of audio i with caption j, where
// audio i matches caption i.
struct WinogroundItem {
  double s00, s01, s10, s11;
};
struct WinogroundScores {
  double text = 0;   // each audio prefers its own caption
  double audio = 0;  // each caption prefers its own audio
  double group = 0;  // both
};
WinogroundScores winoground(const std::vector<WinogroundItem>& items);

}  // namespace aeval::metrics
