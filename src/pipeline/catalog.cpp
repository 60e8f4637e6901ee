#include "aeval/pipeline/catalog.hpp"

#include <fmt/format.h>

#include "aeval/error.hpp"

namespace aeval::pipeline {

namespace {

ArgSpec apply_to(const char* fallback) {
  return {"apply_to", ArgType::text, false, fallback,
          "prediction (the model's answer only) or both (references too)", std::nullopt};
}

ArgSpec references_field() {
  return {"references_field", ArgType::text, false, "",
          "sample field holding a list of references (default: the sample's reference text)", std::nullopt};
}

// What a judge hears and reads, plus the judge's own arguments.
std::vector<ArgSpec> judge_input(std::vector<ArgSpec> args) {
  args.push_back({"audio", ArgType::text, false, "auto",
                  "the audio judged: auto (the model's output audio, else the sample's), output, sample, or a field",
                  std::nullopt});
  args.push_back({"text_field", ArgType::text, false, "", "the text judged (default: the sample's reference text)",
                  std::nullopt});
  return args;
}

ArgSpec default_task() {
  return {"default_task", ArgType::reference, false, "", "task run when only this dataset is named", Kind::task};
}

// Arguments every OpenAI-compatible backend takes.
std::vector<ArgSpec> remote_args(std::vector<ArgSpec> extra) {
  using T = ArgType;
  std::vector<ArgSpec> args = {
      {"base_url", T::text_list, true, "", "http://host:port/v1; a list splits the load", std::nullopt},
      {"model", T::text, true, "", "the model name the server knows", std::nullopt},
      {"api_key_env", T::text, false, "", "environment variable holding the API key (never logged)", std::nullopt},
      {"input_sample_rate", T::integer, false, "16000", "rate of the WAV audio sent", std::nullopt},
      {"max_concurrency", T::integer, false, "16", "requests in flight to the endpoint, shared by all entries naming it", std::nullopt},
      {"timeout_seconds", T::number, false, "120", "per attempt", std::nullopt},
      {"max_retries", T::integer, false, "4", "for connection errors, timeouts, 408, 429, 5xx", std::nullopt},
      {"backoff_seconds", T::number, false, "0.5", "first retry delay; doubles, with jitter", std::nullopt}};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<ClassSpec> build_catalog() {
  using T = ArgType;
  return {
      {Kind::dataset, "jsonl", "A JSONL manifest: one sample per line (id, audio path relative to the file, text)",
       {{"path", T::path, true, "", "the manifest, relative to this YAML file", std::nullopt},
        {"id_field", T::text, false, "id", "field with the sample id", std::nullopt},
        {"audio_field", T::text, false, "audio", "field with the audio path", std::nullopt},
        {"text_field", T::text, false, "text", "field with the reference text", std::nullopt},
        default_task()}},
      {Kind::dataset, "asterisk_prompts", "The Asterisk voice prompts with their published transcripts (Debian packages)",
       {{"sounds_dir", T::path, false, "/usr/share/asterisk/sounds/en_US_f_Allison", "folder of prompt audio", std::nullopt},
        {"transcripts", T::path, false, "/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz",
         "the transcript list", std::nullopt},
        {"extension", T::text, false, ".g722", "audio file extension", std::nullopt},
        default_task()}},
      {Kind::prompt, "chat", "Chat messages (system/user/assistant) of text and audio parts, rendered per sample",
       {{"messages", T::list, true, "",
         "[{role: user, content: [{type: audio, value: '{{ audio }}'}, {type: text, value: '...'}]}]; "
         "content may also be one template string",
         std::nullopt}}},
      {Kind::prompt, "fields", "A map of named templates for non-chat models (TTS text, codec input); "
                               "fields whose name contains 'audio' are audio paths",
       {{"fields", T::map, true, "", "{name: template}", std::nullopt}}},
      {Kind::model, "pocketsphinx", "CMU PocketSphinx speech recognition, linked natively",
       {{"acoustic_model", T::path, false, "/usr/share/pocketsphinx/model/en-us/en-us", "", std::nullopt},
        {"language_model", T::path, false, "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin", "", std::nullopt},
        {"dictionary", T::path, false, "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", "", std::nullopt},
        {"max_concurrency", T::integer, false, "2", "decoders run in parallel", std::nullopt}}},
      {Kind::model, "dataset_only",
       "No model: samples are scored as they are (judge benchmarks, correlation with human ratings); answers are empty",
       {{"max_concurrency", T::integer, false, "16", "samples scored at once (each may call judges)", std::nullopt}}},
      {Kind::model, "predictions_file",
       "Answers a model produced elsewhere, read from a JSONL file by sample id (score existing outputs)",
       {{"path", T::path, true, "", "the JSONL file, relative to this YAML file", std::nullopt},
        {"id_field", T::text, false, "id", "field with the sample id", std::nullopt},
        {"prediction_field", T::text, false, "prediction", "field with the model's answer", std::nullopt}}},
      {Kind::model, "process",
       "Any program speaking aeval's NDJSON protocol on stdin/stdout, started once and kept loaded "
       "(docs/process-protocol.md)",
       {{"command", T::text_list, true, "", "argv, e.g. [python3, my_model.py]; relative paths from this YAML's folder",
         std::nullopt},
        {"input_sample_rate", T::integer, false, "16000", "rate of the WAV files it gets (0: no audio)", std::nullopt},
        {"max_concurrency", T::integer, false, "1", "requests in flight", std::nullopt},
        {"timeout_seconds", T::number, false, "600", "for the ready line and for each answer", std::nullopt},
        {"max_restarts", T::integer, false, "3", "restarts after the process dies", std::nullopt},
        {"bitrate_kbps", T::number, false, "0", "codecs: the bitrate leaderboards show", std::nullopt},
        {"requirements", T::path, false, "",
         "a requirements.txt: the command's python3/python runs in a virtual environment built once for it",
         std::nullopt}}},
      {Kind::model, "openai_chat", "An OpenAI-compatible chat completions endpoint, text and audio input, logprobs",
       remote_args({{"temperature", T::number, false, "", "", std::nullopt},
                    {"max_tokens", T::integer, false, "", "", std::nullopt},
                    {"seed", T::integer, false, "", "", std::nullopt},
                    {"stop", T::text_list, false, "", "", std::nullopt},
                    {"logprobs", T::boolean, false, "false", "return token log-probabilities", std::nullopt},
                    {"top_logprobs", T::integer, false, "0", "alternatives per token", std::nullopt}})},
      {Kind::model, "openai_transcription", "An OpenAI-compatible /audio/transcriptions endpoint (multipart upload)",
       remote_args({{"language", T::text, false, "", "ISO-639-1 hint", std::nullopt}})},
      {Kind::model, "codec", "A built-in audio codec: audio in, reconstructed audio out (libopus, libcodec2, LAME, libgsm)",
       {{"codec", T::text, true, "", "opus, codec2, mp3, gsm or identity", std::nullopt},
        {"bitrate_kbps", T::integer, false, "12", "opus and mp3", std::nullopt},
        {"mode", T::integer, false, "3200", "codec2 bit rate: 3200, 2400, 1600, 1400, 1300, 1200", std::nullopt},
        {"max_concurrency", T::integer, false, "2", "", std::nullopt}}},
      {Kind::model, "espeak", "espeak-ng text-to-speech, run as a subprocess",
       {{"voice", T::text, false, "en-us", "an espeak-ng voice (espeak-ng --voices)", std::nullopt},
        {"words_per_minute", T::integer, false, "175", "", std::nullopt},
        {"pitch", T::integer, false, "50", "0-99", std::nullopt},
        {"max_concurrency", T::integer, false, "2", "", std::nullopt}}},
      {Kind::post_process, "whisper_english", "Whisper's English text normalizer (openai/whisper c0d2f62)",
       {apply_to("both")}},
      {Kind::post_process, "whisper_basic", "Whisper's language-independent normalizer",
       {{"remove_diacritics", T::boolean, false, "false", "", std::nullopt},
        {"split_letters", T::boolean, false, "false", "", std::nullopt},
        apply_to("both")}},
      {Kind::post_process, "strip", "Remove leading and trailing whitespace", {apply_to("both")}},
      {Kind::post_process, "lower", "Lowercase (Python str.lower)", {apply_to("both")}},
      {Kind::post_process, "choice",
       "The option label a free-form answer chose ('The answer is (B).' gives B); empty when ambiguous",
       {{"labels", T::text_list, false, "[A, B, C, D, E]", "the option labels", std::nullopt},
        {"options_field", T::text, false, "", "sample field listing the option texts, matched when no label is given",
         std::nullopt},
        apply_to("prediction")}},
      {Kind::post_process, "yes_no", "yes or no from a free-form answer; empty when it says neither or both",
       {apply_to("prediction")}},
      {Kind::post_process, "json_field",
       "One field of the JSON object in an answer (code fences and prose around it are ignored)",
       {{"field", T::text, true, "", "the field to take", std::nullopt}, apply_to("prediction")}},
      {Kind::post_process, "regex", "The text a regular expression (Python syntax) captures; empty when it does not match",
       {{"pattern", T::text, true, "", "", std::nullopt},
        {"group", T::integer, false, "1", "capture group (0: the whole match)", std::nullopt},
        apply_to("prediction")}},
      {Kind::evaluator, "error_rate", "Word or character error rate, jiwer 4.0; corpus = summed edits / reference tokens",
       {{"unit", T::text, false, "words", "words or chars", std::nullopt}}},
      {Kind::evaluator, "exact_match", "1 when the answer equals a reference after SQuAD normalization; mean = accuracy",
       {references_field()}},
      {Kind::evaluator, "exist_match", "1 when a reference occurs in the answer as whole words", {references_field()}},
      {Kind::evaluator, "bleu", "Corpus BLEU, sacreBLEU 2.6.0",
       {{"tokenize", T::text, false, "13a", "13a, intl, zh, char or none", std::nullopt},
        {"lowercase", T::boolean, false, "false", "", std::nullopt},
        references_field()}},
      {Kind::evaluator, "meteor", "METEOR, NLTK 3.8 with WordNet 3.0 (mean over samples)", {references_field()}},
      {Kind::evaluator, "rouge_l", "ROUGE-L F-measure, rouge-score 0.1.2 (mean over samples)",
       {{"use_stemmer", T::boolean, false, "true", "", std::nullopt}, references_field()}},
      {Kind::evaluator, "cider_d", "CIDEr-D, pycocoevalcap (corpus-level idf)", {references_field()}},
      {Kind::evaluator, "signal",
       "A reference-based signal metric of the model's output audio against the sample's audio (codecs)",
       {{"metric", T::text, true, "", "stoi, estoi, si-sdr, si-snr, snr, mcd, mel-l1 or msspec", std::nullopt},
        {"sample_rate", T::integer, false, "0", "compare at this rate (0: the original audio's rate)", std::nullopt},
        {"trim", T::boolean, false, "true", "cut both to the shorter signal when lengths differ", std::nullopt}}},
      {Kind::evaluator, "asr_error_rate",
       "Error rate of what an ASR model hears in the output audio (codec reconstructions, TTS), against the "
       "reference text or the ASR transcript of the original audio",
       {{"model", T::reference, true, "", "the ASR model (a model entry)", Kind::model},
        {"against", T::text, false, "reference", "reference (the sample's text) or original (the original audio's transcript)",
         std::nullopt},
        {"unit", T::text, false, "words", "words or chars", std::nullopt},
        {"normalizer", T::reference, false, "", "a post-process entry applied to both texts", Kind::post_process},
        references_field()}},
      {Kind::evaluator, "aqascore",
       "AQAScore: p(yes) of an audio-language judge asked a yes/no question about audio and text, from its first "
       "token's log-probabilities; pairwise and CompA modes",
       judge_input({{"judge", T::reference, true, "", "the audio-language model (openai_chat with logprobs)", Kind::model},
                    {"prompt", T::reference, false, "aqascore-contains", "the question (a chat prompt: {{ audio }}, {{ text }})",
                     Kind::prompt},
                    {"mode", T::text, false, "single",
                     "single; pair_audio (fields audio_a, audio_b), pair_text (text_a, text_b): 1 when the preferred one "
                     "matches label_field; compa (audio_a, audio_b, text_a, text_b): text, audio and group scores",
                     std::nullopt},
                    {"label_field", T::text, false, "preferred", "pair modes: the field saying a or b", std::nullopt}})},
      {Kind::evaluator, "rubric_judge",
       "AnyAudio-Judge's dynamic rubric: a text LLM decomposes the description into yes/no items and filters "
       "ungrounded ones; an audio LLM answers each; score = mean p(yes)",
       judge_input({{"decomposer", T::reference, true, "", "the text LLM of stages 1 and 2", Kind::model},
                    {"judge", T::reference, true, "", "the audio LLM of stage 3", Kind::model},
                    {"language", T::text, false, "en", "en or zh: the default prompts' language", std::nullopt},
                    {"mode", T::text, false, "logits", "logits (one request per item, p(yes) from logprobs) or generate "
                                                       "(one request, a JSON array of answers)", std::nullopt},
                    {"filter", T::boolean, false, "true", "stage 2: drop items the description does not support", std::nullopt},
                    {"decompose_prompt", T::reference, false, "rubric-decompose-LANGUAGE", "", Kind::prompt},
                    {"filter_prompt", T::reference, false, "rubric-filter-LANGUAGE", "", Kind::prompt},
                    {"judge_prompt", T::reference, false, "rubric-judge-LANGUAGE", "logits mode", Kind::prompt},
                    {"generate_prompt", T::reference, false, "rubric-generate-LANGUAGE", "generate mode", Kind::prompt}})},
      {Kind::evaluator, "caption_judge",
       "AudioCapBench's LLM judge: accuracy, completeness and hallucination (0-10, 10 = none) of a caption "
       "against the references; overall = their mean",
       {{"judge", T::reference, true, "", "the text LLM", Kind::model},
        {"prompt", T::reference, false, "caption-judge", "", Kind::prompt},
        references_field()}},
      {Kind::evaluator, "judge_accuracy",
       "Accuracy of a judge's yes/no decision against a label (judge benchmarks)",
       {{"score_of", T::text, true, "", "the judge evaluator, listed earlier in the task", std::nullopt},
        {"label_field", T::text, false, "label", "the field holding yes or no", std::nullopt},
        {"rule", T::text, false, "threshold", "threshold (score >= threshold) or all_items_yes (rubric judges)", std::nullopt},
        {"threshold", T::number, false, "0.5", "", std::nullopt}}},
      {Kind::evaluator, "human_correlation",
       "Correlation between an evaluator's scores and human ratings over the corpus (bootstrap it for intervals)",
       {{"score_of", T::text, true, "", "the evaluator whose scores are compared, listed earlier", std::nullopt},
        {"human_field", T::text, false, "human_score", "the field holding the human rating", std::nullopt},
        {"method", T::text, false, "pearson", "pearson, spearman or kendall (tau-b)", std::nullopt}}},
      {Kind::aggregator, "summary", "Corpus value of every evaluator, optionally per group and with a bootstrap interval",
       {{"group_by", T::text_list, false, "[]", "sample fields to break results down by", std::nullopt},
        {"bootstrap", T::integer, false, "0", "resamples for a percentile interval (0: none)", std::nullopt},
        {"confidence", T::number, false, "0.95", "", std::nullopt},
        {"seed", T::integer, false, "0", "", std::nullopt}}},
      {Kind::task, "task", "Binds a dataset, prompt, model, post-processing, evaluators and aggregators",
       {{"dataset", T::reference, true, "", "a dataset entry or a .jsonl manifest path", Kind::dataset},
        {"prompt", T::reference, false, "", "how a sample becomes a request (default: the sample's audio alone)",
         Kind::prompt},
        {"model", T::reference, true, "", "", Kind::model},
        {"post_process", T::references, false, "[]", "applied in order", Kind::post_process},
        {"evaluators", T::references, true, "", "", Kind::evaluator},
        {"aggregators", T::references, false, "[]", "(default: corpus values only)", Kind::aggregator}}},
  };
}

// Where an argument was written: its line, or the --set that put it there.
std::string line_of(const Entry& entry, const YAML::Node& key) {
  if (key.Mark().is_null()) return entry.where() + " (changed by --set)";
  return entry.file.string() + ":" + std::to_string(key.Mark().line + 1);
}

bool scalar_as(const YAML::Node& node, ArgType type) {
  if (!node.IsScalar()) return false;
  try {
    if (type == ArgType::boolean) node.as<bool>();
    if (type == ArgType::integer) node.as<long>();
    if (type == ArgType::number) node.as<double>();
  } catch (const YAML::Exception&) {
    return false;
  }
  return true;
}

void check_reference(const Registry& registry, const Entry& entry, const YAML::Node& key, const ArgSpec& spec,
                     const std::string& name) {
  if (*spec.refers_to == Kind::dataset && is_manifest_path(name)) return;
  if (registry.contains(*spec.refers_to, name)) return;
  throw Error(ErrorCategory::config,
              fmt::format("{}: '{}' of '{}' names {} '{}', which does not exist{}; `aeval list {}` shows them all",
                          line_of(entry, key), spec.name, entry.name, kind_name(*spec.refers_to), name,
                          suggestion_suffix(name, registry.names(*spec.refers_to)), folder_name(*spec.refers_to)));
}

void validate_entry(const Registry& registry, const Entry& entry, Kind kind) {
  const ClassSpec& spec = class_spec(entry, kind);
  std::vector<std::string> known;
  for (const auto& arg : spec.args) known.push_back(arg.name);
  for (const auto& item : entry.args) {
    const std::string key = item.first.as<std::string>();
    const ArgSpec* arg = nullptr;
    for (const auto& a : spec.args)
      if (a.name == key) arg = &a;
    if (!arg)
      throw Error(ErrorCategory::config,
                  fmt::format("{}: unknown argument '{}' for class {}{}; `aeval describe {}` lists its arguments",
                              line_of(entry, item.first), key, spec.id, suggestion_suffix(key, known), entry.name));
    const YAML::Node& value = item.second;
    bool ok = true;
    switch (arg->type) {
      case ArgType::text:
      case ArgType::path:
      case ArgType::reference:
      case ArgType::boolean:
      case ArgType::integer:
      case ArgType::number:
        ok = scalar_as(value, arg->type);
        break;
      case ArgType::text_list:
      case ArgType::references:
        ok = value.IsScalar() || value.IsSequence();
        if (value.IsSequence())
          for (const auto& v : value) ok = ok && v.IsScalar();
        break;
      case ArgType::list:
        ok = value.IsSequence();
        break;
      case ArgType::map:
        ok = value.IsMap();
        break;
    }
    if (!ok)
      throw Error(ErrorCategory::config, fmt::format("{}: argument '{}' of '{}' must be {}", line_of(entry, item.first),
                                                     key, entry.name, type_name(arg->type)));
    if (arg->type == ArgType::reference) check_reference(registry, entry, item.first, *arg, value.as<std::string>());
    if (arg->type == ArgType::references) {
      if (value.IsScalar()) check_reference(registry, entry, item.first, *arg, value.as<std::string>());
      else
        for (const auto& v : value) check_reference(registry, entry, item.first, *arg, v.as<std::string>());
    }
  }
  for (const auto& arg : spec.args)
    if (arg.required && !entry.args[arg.name])
      throw Error(ErrorCategory::config, fmt::format("{}: '{}' (class {}) needs argument '{}': {}", entry.where(),
                                                     entry.name, spec.id, arg.name,
                                                     arg.help.empty() ? type_name(arg.type) : arg.help));
}

}  // namespace

const std::vector<ClassSpec>& class_catalog() {
  static const std::vector<ClassSpec> catalog = build_catalog();
  return catalog;
}

const ClassSpec& class_spec(const Entry& entry, Kind kind) {
  std::vector<std::string> ids;
  for (const auto& spec : class_catalog()) {
    if (spec.kind != kind) continue;
    if (spec.id == entry.class_id) return spec;
    ids.push_back(spec.id);
  }
  throw Error(ErrorCategory::config, fmt::format("{}: unknown {} class '{}'{}", entry.where(), kind_name(kind),
                                                 entry.class_id, suggestion_suffix(entry.class_id, ids)));
}

std::string type_name(ArgType type) {
  switch (type) {
    case ArgType::text: return "a string";
    case ArgType::path: return "a path";
    case ArgType::boolean: return "true or false";
    case ArgType::integer: return "an integer";
    case ArgType::number: return "a number";
    case ArgType::text_list: return "a list of strings";
    case ArgType::list: return "a list";
    case ArgType::map: return "a map";
    case ArgType::reference: return "a name";
    case ArgType::references: return "a list of names";
  }
  return "";
}

void validate_registry(const Registry& registry) {
  for (Kind kind : kAllKinds)
    for (const auto& name : registry.names(kind)) validate_entry(registry, registry.get(kind, name), kind);
}

bool is_manifest_path(const std::string& name) {
  const auto ext = std::filesystem::path(name).extension();
  return ext == ".jsonl";
}

}  // namespace aeval::pipeline
