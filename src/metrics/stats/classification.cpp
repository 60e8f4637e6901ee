// ROC-AUC: scikit-learn 1.2.1 metrics/_ranking.py (_binary_clf_curve,
// roc_curve with drop_intermediate, auc = np.trapz); the rest follows
// sklearn's definitions and the CompA/Winoground protocol.
#include "aeval/metrics/classification.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "aeval/error.hpp"
#include "metrics/stats/stable_order.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::metrics {

namespace {

template <class T>
std::vector<bool> binarize(const std::vector<T>& labels) {
  const std::set<T> classes(labels.begin(), labels.end());
  if (classes.size() < 2)
    throw Error(ErrorCategory::data, "Only one class present in y_true. ROC AUC score is not defined in that case.");
  if (classes.size() > 2)
    throw Error(ErrorCategory::data, "ROC AUC needs binary labels; got " + std::to_string(classes.size()) + " classes");
  std::vector<bool> out;
  for (const T& l : labels) out.push_back(l == *classes.rbegin());
  return out;
}

void check_same_size(std::size_t a, std::size_t b, const char* what) {
  if (a != b)
    throw Error(ErrorCategory::data, std::string(what) + ": " + std::to_string(a) + " labels but " + std::to_string(b) +
                                         " predictions");
  if (a == 0) throw Error(ErrorCategory::data, std::string(what) + ": no samples");
}

}  // namespace

std::vector<bool> positive_labels(const std::vector<std::string>& labels) { return binarize(labels); }
std::vector<bool> positive_labels(const std::vector<double>& labels) { return binarize(labels); }

double roc_auc(const std::vector<bool>& positive, const std::vector<double>& scores) {
  check_same_size(positive.size(), scores.size(), "roc_auc");
  const std::size_t n = scores.size();
  const std::size_t positives = std::size_t(std::count(positive.begin(), positive.end(), true));
  if (positives == 0 || positives == n)
    throw Error(ErrorCategory::data, "Only one class present in y_true. ROC AUC score is not defined in that case.");
  for (std::size_t i = 0; i < n; ++i)  // scikit-learn's check_array refuses them too
    if (std::isnan(scores[i])) throw Error(ErrorCategory::data, "roc_auc: score " + std::to_string(i) + " is NaN");
  // Descending scores: numpy's stable argsort, reversed.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  order = stable_order_by(scores, std::move(order));
  std::reverse(order.begin(), order.end());
  // One curve point at the last index of each run of equal scores.
  std::vector<double> tps, fps;
  double cumulative = 0;
  for (std::size_t k = 0; k < n; ++k) {
    cumulative += positive[order[k]] ? 1.0 : 0.0;
    if (k + 1 == n || scores[order[k + 1]] != scores[order[k]]) {
      tps.push_back(cumulative);
      fps.push_back(double(k + 1) - cumulative);
    }
  }
  // drop_intermediate: keep the ends and every point where the slope changes.
  if (fps.size() > 2) {
    std::vector<double> kept_t{tps.front()}, kept_f{fps.front()};
    for (std::size_t k = 1; k + 1 < fps.size(); ++k) {
      const double second_f = fps[k + 1] - 2 * fps[k] + fps[k - 1];
      const double second_t = tps[k + 1] - 2 * tps[k] + tps[k - 1];
      if (second_f != 0 || second_t != 0) {
        kept_t.push_back(tps[k]);
        kept_f.push_back(fps[k]);
      }
    }
    kept_t.push_back(tps.back());
    kept_f.push_back(fps.back());
    tps.swap(kept_t);
    fps.swap(kept_f);
  }
  tps.insert(tps.begin(), 0.0);
  fps.insert(fps.begin(), 0.0);
  const double max_f = fps.back(), max_t = tps.back();
  std::vector<double> areas;
  for (std::size_t k = 0; k + 1 < fps.size(); ++k) {
    const double dx = fps[k + 1] / max_f - fps[k] / max_f;
    areas.push_back(dx * (tps[k + 1] / max_t + tps[k] / max_t) / 2.0);
  }
  return aeval::detail::numpy_pairwise_sum(areas.data(), areas.size());
}

double accuracy(const std::vector<int>& truth, const std::vector<int>& predicted) {
  check_same_size(truth.size(), predicted.size(), "accuracy");
  std::size_t correct = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) correct += truth[i] == predicted[i];
  return double(correct) / double(truth.size());
}

double balanced_accuracy(const std::vector<int>& truth, const std::vector<int>& predicted) {
  check_same_size(truth.size(), predicted.size(), "balanced_accuracy");
  std::map<int, std::pair<std::size_t, std::size_t>> per_class;  // class → (hits, support)
  for (std::size_t i = 0; i < truth.size(); ++i) {
    auto& [hits, support] = per_class[truth[i]];
    ++support;
    hits += truth[i] == predicted[i];
  }
  double sum = 0;
  for (const auto& [label, counts] : per_class) sum += double(counts.first) / double(counts.second);
  return sum / double(per_class.size());
}

double f1(const std::vector<int>& truth, const std::vector<int>& predicted, int positive) {
  check_same_size(truth.size(), predicted.size(), "f1");
  double tp = 0, fp = 0, fn = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    const bool t = truth[i] == positive, p = predicted[i] == positive;
    tp += t && p;
    fp += !t && p;
    fn += t && !p;
  }
  const double denominator = 2 * tp + fp + fn;
  return denominator == 0 ? 0.0 : 2 * tp / denominator;
}

double pairwise_preference_accuracy(const std::vector<double>& preferred, const std::vector<double>& other,
                                    double tie_credit) {
  check_same_size(preferred.size(), other.size(), "pairwise preference accuracy");
  double credit = 0;
  for (std::size_t i = 0; i < preferred.size(); ++i) {
    if (std::isnan(preferred[i]) || std::isnan(other[i]))
      throw Error(ErrorCategory::data, "pairwise preference accuracy: NaN score in pair " + std::to_string(i));
    credit += preferred[i] > other[i] ? 1.0 : preferred[i] == other[i] ? tie_credit : 0.0;
  }
  return credit / double(preferred.size());
}

WinogroundScores winoground(const std::vector<WinogroundItem>& items) {
  if (items.empty()) throw Error(ErrorCategory::data, "winoground: no items");
  WinogroundScores s;
  for (const auto& it : items) {
    const bool text = it.s00 > it.s01 && it.s11 > it.s10;
    const bool audio = it.s00 > it.s10 && it.s11 > it.s01;
    s.text += text;
    s.audio += audio;
    s.group += text && audio;
  }
  const double n = double(items.size());
  s.text /= n;
  s.audio /= n;
  s.group /= n;
  return s;
}

}  // namespace aeval::metrics
