// Times aeval's text metrics on real inputs: the caption pairs (AudioCaps
// captions, 4-5 references each) and ASR pairs (Asterisk transcripts vs
// PocketSphinx output) of shared/reference/nltk_meteor.jsonl, repeated to
// 10,000 caption pairs and 2,600 ASR pairs. Prints JSON: seconds per metric.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "aeval/metrics/bleu.hpp"
#include "aeval/metrics/cider.hpp"
#include "aeval/metrics/correlation.hpp"
#include "aeval/metrics/classification.hpp"
#include "aeval/metrics/meteor.hpp"
#include "aeval/metrics/nltk_bleu.hpp"
#include "aeval/metrics/rouge.hpp"
#include "aeval/metrics/wer.hpp"
#include "aeval/text/porter_stemmer.hpp"

namespace {

struct Pair {
  std::string hypothesis;
  std::vector<std::string> references;
};

double seconds(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: aeval_bench_text shared/reference/nltk_meteor.jsonl\n");
    return 2;
  }
  std::vector<Pair> captions, asr;
  std::ifstream in(argv[1]);
  for (std::string line; std::getline(in, line);) {
    const auto r = nlohmann::json::parse(line);
    Pair p{r["input"]["hypothesis"], r["input"]["references"].get<std::vector<std::string>>()};
    (r["id"].get<std::string>().find("asterisk:") != std::string::npos ? asr : captions).push_back(p);
  }
  if (captions.empty() || asr.empty()) {
    std::fprintf(stderr, "no caption or ASR pairs in %s\n", argv[1]);
    return 1;
  }
  auto repeat = [](const std::vector<Pair>& v, std::size_t n) {
    std::vector<Pair> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(v[i % v.size()]);
    return out;
  };
  captions = repeat(captions, 10000);
  asr = repeat(asr, 2600);

  nlohmann::json out;
  double sink = 0;
  out["wer_asr"] = seconds([&] {
    std::vector<std::string> refs, hyps;
    for (const auto& p : asr) refs.push_back(p.references[0]), hyps.push_back(p.hypothesis);
    sink += aeval::metrics::process_words(refs, hyps).rates().wer;
  });
  out["cer_asr"] = seconds([&] {
    std::vector<std::string> refs, hyps;
    for (const auto& p : asr) refs.push_back(p.references[0]), hyps.push_back(p.hypothesis);
    sink += aeval::metrics::process_characters(refs, hyps).rates().wer;
  });
  out["sacrebleu_sentence_captions"] = seconds([&] {
    for (const auto& p : captions) sink += aeval::metrics::sentence_bleu(p.hypothesis, p.references).score;
  });
  out["chrf_sentence_captions"] = seconds([&] {
    for (const auto& p : captions) sink += aeval::metrics::sentence_chrf(p.hypothesis, p.references).score;
  });
  out["nltk_bleu4_captions"] = seconds([&] {
    const auto o = aeval::metrics::audiocapbench_bleu_n(4);
    for (const auto& p : captions) {
      std::vector<aeval::metrics::Tokens> refs;
      for (const auto& r : p.references) refs.push_back(aeval::metrics::lower_split(r));
      sink += aeval::metrics::nltk_sentence_bleu(refs, aeval::metrics::lower_split(p.hypothesis), o);
    }
  });
  const auto& wordnet = aeval::text::default_wordnet();
  out["meteor_captions"] = seconds([&] {
    for (const auto& p : captions) {
      std::vector<aeval::metrics::Tokens> refs;
      for (const auto& r : p.references) refs.push_back(aeval::metrics::lower_split(r));
      sink += aeval::metrics::meteor_score(refs, aeval::metrics::lower_split(p.hypothesis), wordnet);
    }
  });
  out["rouge_l_stem_captions"] = seconds([&] {
    for (const auto& p : captions) sink += aeval::metrics::rouge_score_multi(p.references, p.hypothesis, true).rougeL.fmeasure;
  });
  out["cider_d_captions"] = seconds([&] {
    std::vector<std::string> cands;
    std::vector<std::vector<std::string>> refs;
    for (const auto& p : captions) {
      cands.push_back(aeval::metrics::cider_simple_tokenize(p.hypothesis));
      refs.emplace_back();
      for (const auto& r : p.references) refs.back().push_back(aeval::metrics::cider_simple_tokenize(r));
    }
    sink += aeval::metrics::cider_d(cands, refs).corpus;
  });
  out["porter_captions"] = seconds([&] {
    for (const auto& p : captions)
      for (const auto& w : aeval::metrics::lower_split(p.hypothesis)) sink += double(aeval::text::porter_stem(w).size());
  });
  std::vector<double> x, y;
  std::vector<bool> labels;
  for (std::size_t i = 0; i < captions.size(); ++i) {
    x.push_back(double(captions[i].hypothesis.size() % 97) + 0.001 * double(i));
    y.push_back(double(captions[i].references[0].size() % 89));
    labels.push_back(i % 3 == 0);
  }
  out["pearson_spearman_kendall_auc_10k"] = seconds([&] {
    sink += aeval::metrics::pearson(x, y).statistic + aeval::metrics::spearman(x, y).statistic +
            aeval::metrics::kendall(x, y).statistic + aeval::metrics::roc_auc(labels, x);
  });
  out["checksum"] = sink;
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
