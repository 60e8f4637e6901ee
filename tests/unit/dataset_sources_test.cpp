// Dataset classes over files the test writes from real recordings
// (pocketsphinx-testdata's LibriVox and card-game utterances): LibriSpeech's
// layout in a tar.gz, a Kaldi data directory, TSV/CSV lists and
// UltraEval-Audio's WavPath JSONL, each loaded through a registry entry.
#include <gtest/gtest.h>
#include <sndfile.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "registry/registry.hpp"
#include "support/config_error.hpp"
#include "support/file_server.hpp"
#include "support/pocketsphinx_testdata.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::datasets::Dataset;
using aeval::testing::read_bytes;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

const fs::path kTestData = aeval::testing::kPocketsphinxTestData;

// The cache (archives are extracted there) in a folder of the test's own.
class ScopedCache {
 public:
  const fs::path& path() const { return dir_.path(); }

 private:
  TempDir dir_;
  aeval::testing::ScopedEnv cache_{"XDG_CACHE_HOME", dir_.path().c_str()};
};

// Loads dataset `name` from a registry holding `yaml` as datasets/sources.yaml in `dir`.
Dataset load(const TempDir& dir, const std::string& yaml, const std::string& name) {
  fs::create_directories(dir / "registry" / "datasets");
  write_bytes(dir / "registry" / "datasets" / "sources.yaml", yaml);
  const aeval::registry::Registry registry({dir / "registry"});
  return aeval::datasets::load_dataset(registry, name);
}

std::string data_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << e.what();
    return e.what();
  }
  return "<no error>";
}

struct Utterance {
  fs::path wav;
  std::string transcript;  // upper case, as LibriSpeech writes them
};

// pocketsphinx-testdata's "<s> words </s> (file-id)" lines, by file id.
std::map<std::string, Utterance> recordings(const std::string& folder) {
  std::ifstream in(kTestData / folder / (folder == "cards" ? "cards.transcription" : "transcription"));
  std::map<std::string, Utterance> out;
  std::string line;
  while (std::getline(in, line)) {
    const auto open = line.rfind('('), close = line.rfind(')');
    const std::string id = line.substr(open + 1, close - open - 1);
    std::string words = line.substr(0, open);
    for (const char* tag : {"<s>", "</s>"}) words.erase(words.find(tag), std::string(tag).size());
    words.erase(0, words.find_first_not_of(' '));
    words.erase(words.find_last_not_of(' ') + 1);
    std::transform(words.begin(), words.end(), words.begin(), [](unsigned char c) { return std::toupper(c); });
    out[id] = {kTestData / folder / (id + ".wav"), words};
  }
  return out;
}

void write_flac(const fs::path& path, const aeval::Audio& audio) {
  SF_INFO info{};
  info.samplerate = audio.sample_rate;
  info.channels = audio.channels;
  info.format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(file, nullptr) << path << ": " << sf_strerror(nullptr);
  const std::vector<int16_t> pcm = aeval::to_pcm16(audio.samples);
  EXPECT_EQ(sf_writef_short(file, pcm.data(), sf_count_t(audio.frames())), sf_count_t(audio.frames()));
  sf_close(file);
}

TEST(LibriSpeechAndKaldi, AnArchiveInLibriSpeechLayoutAndAKaldiDirectoryOfTheSameRecordingsGiveTheSameSamples) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  const ScopedCache cache;
  // Two speakers, one chapter each: the LibriVox reading and the card-game utterances.
  const std::vector<std::pair<std::string, std::map<std::string, Utterance>>> chapters = {
      {"84-121123", recordings("librivox")}, {"1272-128104", recordings("cards")}};
  std::string wav_scp, text, utt2spk;
  std::size_t count = 0;
  for (const auto& [chapter, utterances] : chapters) {
    const std::string speaker = chapter.substr(0, chapter.find('-'));
    const fs::path folder = dir / "tree" / "LibriSpeech" / "test-clean" / speaker / chapter.substr(speaker.size() + 1);
    fs::create_directories(folder);
    std::string trans;
    int n = 0;
    for (const auto& [file_id, u] : utterances) {
      char number[16];
      std::snprintf(number, sizeof number, "%04d", n++);
      const std::string id = chapter + "-" + number;
      write_flac(folder / (id + ".flac"), aeval::decode_audio(u.wav));
      trans += id + " " + u.transcript + "\n";
      wav_scp += id + " " + u.wav.string() + "\n";
      text += id + " " + u.transcript + "\n";
      utt2spk += id + " " + speaker + "\n";
      ++count;
    }
    write_bytes(folder / (chapter + ".trans.txt"), trans);
  }
  ASSERT_EQ(count, 10u);
  const std::string tar =
      "tar -czf " + (dir / "test-clean.tar.gz").string() + " -C " + (dir / "tree").string() + " LibriSpeech";
  ASSERT_EQ(std::system(tar.c_str()), 0) << tar;
  fs::create_directories(dir / "kaldi");
  // Kaldi's files are sorted by key; written here in the order the loop met them.
  write_bytes(dir / "kaldi" / "wav.scp", wav_scp);
  write_bytes(dir / "kaldi" / "text", text);
  write_bytes(dir / "kaldi" / "utt2spk", utt2spk);

  const std::string yaml =
      "ls-archive:\n  class: librispeech\n  args:\n    path: ../../test-clean.tar.gz\n"
      "kaldi-dir:\n  class: kaldi\n  args:\n    path: ../../kaldi\n";
  const Dataset libri = load(dir, yaml, "ls-archive");
  const Dataset kaldi = load(dir, yaml, "kaldi-dir");
  EXPECT_TRUE(fs::exists(cache.path() / "aeval" / "datasets" / "ls-archive" / "extracted" / "LibriSpeech"));
  ASSERT_EQ(libri.samples.size(), count);
  ASSERT_EQ(kaldi.samples.size(), count);
  EXPECT_EQ(libri.samples.front().id, "1272-128104-0000") << "samples sorted by id";
  for (std::size_t i = 0; i < count; ++i) {
    const auto &a = libri.samples[i], &b = kaldi.samples[i];
    ASSERT_EQ(a.id, b.id);
    EXPECT_EQ(a.reference, b.reference) << a.id;
    EXPECT_EQ(a.audio.extension(), ".flac");
    EXPECT_EQ(b.audio.extension(), ".wav");
    EXPECT_EQ(a.fields["speaker_id"], b.fields["speaker"]) << a.id;
    EXPECT_EQ(a.fields["chapter_id"], a.id.substr(a.id.find('-') + 1, a.id.rfind('-') - a.id.find('-') - 1));
    const aeval::Audio from_flac = aeval::decode_audio(a.audio), from_wav = aeval::decode_audio(b.audio);
    EXPECT_EQ(from_flac.sample_rate, from_wav.sample_rate) << a.id;
    EXPECT_GT(from_flac.frames(), 8000u) << a.id;
    EXPECT_TRUE(from_flac.samples == from_wav.samples) << a.id << ": the decoded samples differ";
  }
  EXPECT_EQ(*kaldi.samples.back().reference, "HE MIGHT EVEN HAVE BEEN MADE AMIABLE HIMSELF");
  EXPECT_EQ(kaldi.description["class"], "kaldi");
  EXPECT_EQ(libri.description["samples"], count);
}

TEST(LibriSpeechLayout, AMissingFlacStillMakesItsSampleAndAMalformedLineNamesFileAndLine) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  const fs::path chapter = dir / "data" / "19" / "198";
  fs::create_directories(chapter);
  write_flac(chapter / "19-198-0001.flac", aeval::decode_audio(kTestData / "cards" / "001.wav"));
  write_bytes(chapter / "19-198.trans.txt", "19-198-0001 TEN OF CLUBS\r\n19-198-0002 FOUR QUEEN OF CLUBS\n");
  const std::string yaml = "ls:\n  class: librispeech\n  args:\n    path: ../../data\n";
  const Dataset d = load(dir, yaml, "ls");
  ASSERT_EQ(d.samples.size(), 2u);
  EXPECT_EQ(d.samples[0].reference, "TEN OF CLUBS") << "a Windows line end is not part of the transcript";
  EXPECT_EQ(d.samples[1].audio, chapter / "19-198-0002.flac");
  EXPECT_FALSE(fs::exists(d.samples[1].audio));
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("1 transcript lines have no .flac file"), std::string::npos) << d.notes[0];

  write_bytes(chapter / "19-198.trans.txt", "19-198-0001 TEN OF CLUBS\n19-198-0002\n");
  std::string message = data_error([&] { load(dir, yaml, "ls"); });
  EXPECT_NE(message.find("19-198.trans.txt:2: expected '19-198-UTTERANCE TRANSCRIPT'"), std::string::npos) << message;
  write_bytes(chapter / "19-198.trans.txt", "19-198-0001 TEN OF CLUBS\n20-198-0002 FOUR\n");
  message = data_error([&] { load(dir, yaml, "ls"); });
  EXPECT_NE(message.find("19-198.trans.txt:2:"), std::string::npos) << message;
  write_bytes(chapter / "19-198.trans.txt", "19-198-0001 TEN OF CLUBS\n19-198-0001 AGAIN\n");
  message = data_error([&] { load(dir, yaml, "ls"); });
  EXPECT_NE(message.find("19-198.trans.txt:2: duplicate id '19-198-0001'"), std::string::npos) << message;
  fs::remove(chapter / "19-198.trans.txt");
  message = data_error([&] { load(dir, yaml, "ls"); });
  EXPECT_NE(message.find("not LibriSpeech's layout"), std::string::npos) << message;
}

TEST(KaldiDir, SegmentsBecomeTimeFragmentsOfTheirRecordingWithPathsRelativeToTheFolder) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  fs::create_directories(dir / "data" / "audio");
  fs::copy_file(kTestData / "cards" / "005.wav", dir / "data" / "audio" / "cards5.wav");
  write_bytes(dir / "data" / "wav.scp",
              "rec5 audio/cards5.wav\nrec1 " + (kTestData / "cards" / "001.wav").string() + "\n");
  write_bytes(dir / "data" / "segments", "rec5-b rec5 1.50 3.25\nrec5-a rec5 0 1.5\n\nrec1-all rec1 0.0 -1\n");
  write_bytes(dir / "data" / "text", "rec5-a EIGHT OF SPADES\nrec5-b FOUR OF CLUBS  SEVEN OF HEARTS\nrec1-all\n");
  write_bytes(dir / "data" / "utt2spk", "rec5-a spk1\nrec5-b spk1\nrec1-all spk2\n");
  const Dataset d = load(dir, "k:\n  class: kaldi\n  args:\n    path: ../../data\n", "k");
  ASSERT_EQ(d.samples.size(), 3u);
  EXPECT_EQ(d.samples[0].id, "rec1-all");
  EXPECT_EQ(d.samples[0].audio.string(), (kTestData / "cards" / "001.wav").string() + "#t=0.0");
  EXPECT_EQ(d.samples[0].reference, "") << "an utterance with an empty transcript has an empty reference";
  EXPECT_EQ(d.samples[1].id, "rec5-a");
  EXPECT_EQ(d.samples[1].audio.string(), (dir / "data" / "audio" / "cards5.wav").string() + "#t=0,1.5");
  EXPECT_EQ(d.samples[2].audio.string(), (dir / "data" / "audio" / "cards5.wav").string() + "#t=1.50,3.25");
  EXPECT_EQ(d.samples[2].reference, "FOUR OF CLUBS  SEVEN OF HEARTS") << "a transcript is kept as written";
  EXPECT_EQ(d.samples[2].fields["speaker"], "spk1");
  EXPECT_EQ(d.samples[2].fields["recording_id"], "rec5");
  EXPECT_EQ(d.samples[0].fields["speaker"], "spk2");
  EXPECT_EQ(d.description["segments"], true);
  // The decoder cuts the fragment out of the file (16 kHz: 1.5 s is 24000 samples exactly).
  const aeval::Audio whole = aeval::decode_audio(kTestData / "cards" / "005.wav");
  const aeval::Audio cut = aeval::decode_audio(d.samples[1].audio);
  EXPECT_TRUE(cut.samples == std::vector<float>(whole.samples.begin(), whole.samples.begin() + 24000));
  EXPECT_EQ(aeval::decode_audio(d.samples[2].audio).frames(), 28000u);
  EXPECT_EQ(aeval::decode_audio(d.samples[0].audio).samples,
            aeval::decode_audio(kTestData / "cards" / "001.wav").samples);
}

TEST(KaldiDir, PipeCommandsAndArkOffsetsInWavScpAreRefused) {
  TempDir dir;
  fs::create_directories(dir / "data");
  const std::string yaml = "k:\n  class: kaldi\n  args:\n    path: ../../data\n";
  write_bytes(dir / "data" / "wav.scp", "a /x/a.wav\nb flac -c -d -s /x/b.flac |\n");
  std::string message = data_error([&] { load(dir, yaml, "k"); });
  EXPECT_NE(message.find("wav.scp:2: 'flac -c -d -s /x/b.flac |' is a command, which aeval does not run; convert "
                         "the audio to files first (e.g. wav-copy"),
            std::string::npos)
      << message;
  write_bytes(dir / "data" / "wav.scp", "a /x/feats.ark:1234\n");
  message = data_error([&] { load(dir, yaml, "k"); });
  EXPECT_NE(message.find("wav.scp:1: '/x/feats.ark:1234' is an offset into a Kaldi archive"), std::string::npos)
      << message;
}

TEST(KaldiDir, InconsistentFilesAreErrorsNamingFileAndLine) {
  TempDir dir;
  fs::create_directories(dir / "data");
  const std::string yaml = "k:\n  class: kaldi\n  args:\n    path: ../../data\n";
  const auto expect = [&](const std::string& file, const std::string& content, const std::string& fragment) {
    write_bytes(dir / "data" / "wav.scp", "r1 /x/r1.wav\nr2 /x/r2.wav\n");
    fs::remove(dir / "data" / "segments");
    fs::remove(dir / "data" / "text");
    write_bytes(dir / "data" / file, content);
    const std::string message = data_error([&] { load(dir, yaml, "k"); });
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  };
  expect("segments", "u1 r1 0 1\nu2 r3 0 1\n", "segments:2: recording 'r3' is not in wav.scp");
  expect("segments", "u1 r1 0\n", "segments:1: expected 'UTTERANCE-ID RECORDING-ID START END'");
  expect("segments", "u1 r1 0 one\n", "segments:1: 'one' is not a time in seconds");
  expect("segments", "u1 r1 2 1\n", "segments:1: the segment 2..1 is empty or negative");
  expect("text", "r1 hello\nu9 world\n", "text:2: utterance 'u9' is in neither wav.scp nor segments");
  expect("wav.scp", "r1 /x/a.wav\nr1 /x/b.wav\n", "wav.scp:2: duplicate key 'r1' (first at ");
  fs::remove(dir / "data" / "wav.scp");
  const std::string message = data_error([&] { load(dir, yaml, "k"); });
  EXPECT_NE(message.find("no wav.scp (not a Kaldi data directory)"), std::string::npos) << message;
}

TEST(TableList, CommonVoiceTsvReadsPathAndSentenceWithAudioInClips) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  fs::create_directories(dir / "cv" / "clips");
  const auto cards = recordings("cards");
  std::string tsv = "client_id\tpath\tsentence\tup_votes\taccents\n";
  for (const auto& [id, u] : cards) {
    fs::copy_file(u.wav, dir / "cv" / "clips" / ("common_voice_en_" + id + ".wav"));
    tsv += "c" + id + "\tcommon_voice_en_" + id + ".wav\t" + u.transcript + "\t2\t\n";
  }
  write_bytes(dir / "cv" / "test.tsv", tsv);
  const std::string yaml =
      "cv:\n  class: table\n  args:\n    path: ../../cv/test.tsv\n    audio_dir: clips\n"
      "cv3:\n  class: table\n  args:\n    path: ../../cv/test.tsv\n    audio_dir: clips\n    limit: 3\n";
  const Dataset d = load(dir, yaml, "cv");
  ASSERT_EQ(d.samples.size(), 5u);
  EXPECT_EQ(d.samples[0].id, "common_voice_en_001") << "the id defaults to the audio file's stem";
  EXPECT_EQ(d.samples[0].audio, dir / "cv" / "clips" / "common_voice_en_001.wav");
  EXPECT_EQ(d.samples[4].reference, "EIGHT OF SPADES FOUR OF CLUBS SEVEN OF HEARTS");
  EXPECT_EQ(d.samples[1].fields, (nlohmann::json{{"client_id", "c002"}, {"up_votes", "2"}, {"accents", nullptr}}))
      << d.samples[1].fields.dump();
  EXPECT_EQ(aeval::decode_audio(d.samples[2].audio).samples, aeval::decode_audio(cards.at("003").wav).samples);
  EXPECT_EQ(load(dir, yaml, "cv3").samples.size(), 3u);
}

TEST(TableList, AColumnThatDoesNotExistIsAnErrorListingTheColumns) {
  TempDir dir;
  write_bytes(dir / "list.tsv", "client_id\tfile\tsentence\nc1\ta.wav\thello\n");
  const std::string message =
      data_error([&] { load(dir, "t:\n  class: table\n  args:\n    path: ../../list.tsv\n", "t"); });
  EXPECT_NE(message.find("list.tsv: no column 'path' (audio_column); its columns are: client_id, file, sentence"),
            std::string::npos)
      << message;
  const std::string id_message = data_error([&] {
    load(dir, "t:\n  class: table\n  args:\n    path: ../../list.tsv\n    audio_column: file\n    id_column: uid\n",
         "t");
  });
  EXPECT_NE(id_message.find("no column 'uid' (id_column); its columns are: client_id, file, sentence"),
            std::string::npos)
      << id_message;
}

TEST(TableList, AListWithoutAHeaderLineTakesItsColumnNamesFromTheEntry) {
  // FLEURS' test.tsv: id, file name, raw and normalised transcription, characters, samples, gender; no header.
  TempDir dir;
  write_bytes(dir / "test.tsv",
              "1655\t10004.wav\tThe Raw Text.\tthe raw text\tt h e |\t96000\tFEMALE\n"
              "1656\t10005.wav\tMore words\tmore words\tm o r e |\t80000\tMALE\n");
  const std::string yaml =
      "f:\n  class: table\n  args:\n    path: ../../test.tsv\n    audio_dir: audio/test\n"
      "    columns: [id, file_name, raw_transcription, transcription, characters, num_samples, gender]\n"
      "    audio_column: file_name\n    text_column: transcription\n    id_column: id\n";
  const Dataset d = load(dir, yaml, "f");
  ASSERT_EQ(d.samples.size(), 2u) << "the first line is a row, not a header";
  EXPECT_EQ(d.samples[0].id, "1655");
  EXPECT_EQ(d.samples[0].audio, dir / "audio" / "test" / "10004.wav");
  EXPECT_EQ(d.samples[1].reference, "more words");
  EXPECT_EQ(d.samples[1].fields["raw_transcription"], "More words");
  EXPECT_EQ(d.samples[1].fields["gender"], "MALE");
  const std::string message = data_error([&] {
    load(dir, "f:\n  class: table\n  args:\n    path: ../../test.tsv\n    columns: [a, b]\n", "f");
  });
  EXPECT_FALSE(message.empty()) << "seven fields under two names is an error";
}

TEST(TableList, CsvWithAnIdColumnAndOtherAudioColumnsResolvedAgainstAudioDir) {
  TempDir dir;
  write_bytes(dir / "pairs.csv",
              "id,audio,text,audio_reference,gender\nu1,a/x.wav,hello there,a/ref.wav,female\n"
              "u2,/abs/y.wav,bye,,male\nu1,a/z.wav,again,,male\n");
  const std::string yaml =
      "t:\n  class: table\n  args:\n    path: ../../pairs.csv\n    id_column: id\n    audio_column: audio\n"
      "    text_column: text\n";
  const std::string message = data_error([&] { load(dir, yaml, "t"); });
  EXPECT_NE(message.find("pairs.csv: row 3: duplicate id 'u1' (first in row 1)"), std::string::npos) << message;
  write_bytes(dir / "pairs.csv",
              "id,audio,text,audio_reference,gender\nu1,a/x.wav,hello there,a/ref.wav,female\n"
              "u2,/abs/y.wav,bye,,male\n");
  const Dataset d = load(dir, yaml, "t");
  ASSERT_EQ(d.samples.size(), 2u);
  EXPECT_EQ(d.samples[0].audio, dir / "a" / "x.wav");
  EXPECT_EQ(d.samples[0].fields["audio_reference"], (dir / "a" / "ref.wav").string());
  EXPECT_EQ(d.samples[1].audio, "/abs/y.wav");
  EXPECT_EQ(d.samples[1].reference, "bye");
  EXPECT_EQ(d.samples[1].fields["gender"], "male");
}

// RELATE's layout, broken three ways: each is an error naming the file and what is wrong.
TEST(RatedClips, AMissingColumnARatingThatIsNoNumberAndAnEmptySplitAreErrors) {
  TempDir dir;
  const std::string header = "wavname,text,score,in RELATE dataset\n";
  write_bytes(dir / "no-score.csv", "wavname,text,rating,in RELATE dataset\n/a/test/1.wav,a dog,3,test\n");
  write_bytes(dir / "not-a-number.csv", header + "/a/test/1.wav,\"a dog, barking\",7,test\n/a/test/1.wav,\"a dog, barking\",high,test\n");
  write_bytes(dir / "no-test.csv", header + "/a/train/1.wav,a dog,7,train\n");
  const auto entry = [&](const char* file) {
    return fmt::format("r:\n  class: rated_clips\n  args:\n    path: ../../{}\n    audio_dir: ../../audio\n", file);
  };
  const std::string missing = data_error([&] { load(dir, entry("no-score.csv"), "r"); });
  EXPECT_NE(missing.find("no-score.csv: no column 'score' (rating_column); its columns are: wavname, text, rating, in RELATE dataset"),
            std::string::npos)
      << missing;
  const std::string text = data_error([&] { load(dir, entry("not-a-number.csv"), "r"); });
  EXPECT_NE(text.find("'high'"), std::string::npos) << text;
  const std::string empty = data_error([&] { load(dir, entry("no-test.csv"), "r"); });
  EXPECT_NE(empty.find("no-test.csv: no rows with in RELATE dataset = 'test'"), std::string::npos) << empty;
  // And read right: one sample per clip and text, the quoted comma kept, ratings averaged.
  write_bytes(dir / "good.csv", header + "/a/test/1.wav,\"a dog, barking\",7,test\n/a/test/1.wav,\"a dog, barking\",4,test\n");
  const Dataset d = load(dir, entry("good.csv"), "r");
  ASSERT_EQ(d.samples.size(), 1u);
  EXPECT_EQ(d.samples[0].id, "a/test/1.wav|a dog, barking");
  EXPECT_EQ(fs::weakly_canonical(d.samples[0].audio), fs::weakly_canonical(dir / "audio" / "a/test/1.wav"));
  EXPECT_DOUBLE_EQ(d.samples[0].fields["human_score"].get<double>(), 5.5);
  EXPECT_EQ(d.samples[0].fields["system"], "a");
  // Their sum, which RELATE-Pair's 420 pairs are formed on, and their number.
  EXPECT_DOUBLE_EQ(d.samples[0].fields["human_score_sum"].get<double>(), 11.0);
  EXPECT_EQ(d.samples[0].fields["ratings"], 2);
  // RELATE-Pair's other reading, generated clips alone: a system list keeps only theirs.
  write_bytes(dir / "two.csv", header + "/a/test/1.wav,x,7,test\n/b/test/1.wav,x,2,test\n");
  EXPECT_EQ(load(dir, entry("two.csv"), "r").samples.size(), 2u);
  const Dataset b = load(dir, entry("two.csv") + "    systems: [b]\n", "r");
  ASSERT_EQ(b.samples.size(), 1u);
  EXPECT_EQ(b.samples[0].fields["system"], "b");
}

// RELATE-Pair's pairs as clip_pairs forms them from rated clips: two clips of one text whose human scores differ by
// more than min_difference, of the systems `only` names; the earlier clip is audio_a.
TEST(ClipPairs, TwoClipsOfOneTextThatPeopleToldApartOfTheSystemsNamed) {
  TempDir dir;
  const std::string header = "wavname,text,score,in RELATE dataset\n";
  // Text x: a (sum 10, mean 5), b (sum 12 over three ratings, mean 4), c (sum 10, mean 10). Text y: b and c tied.
  write_bytes(dir / "rel.csv", header + "/a/test/1.wav,x,5,test\n/a/test/1.wav,x,5,test\n"
                                        "/b/test/1.wav,x,4,test\n/b/test/1.wav,x,4,test\n/b/test/1.wav,x,4,test\n"
                                        "/c/test/1.wav,x,10,test\n/b/test/2.wav,y,3,test\n/c/test/2.wav,y,3,test\n");
  const std::string clips = "r:\n  class: rated_clips\n  args:\n    path: ../../rel.csv\n    audio_dir: ../../audio\n";
  const auto pairs = [&](const std::string& args) {
    return load(dir, clips + "p:\n  class: clip_pairs\n  args:\n    clips: r\n" + args, "p");
  };
  const Dataset summed = pairs("    human_field: human_score_sum\n    min_difference: 0\n    only: {system: [b, c]}\n");
  ASSERT_EQ(summed.samples.size(), 1u) << "b and c of text x (12 and 10); a is no system named; y's sums tie";
  EXPECT_EQ(summed.samples[0].id, "b/test/1.wav|x|c/test/1.wav|x");
  EXPECT_EQ(summed.samples[0].fields["first_preferred"], "yes");
  EXPECT_EQ(summed.samples[0].reference, "x");
  const Dataset averaged = pairs("    min_difference: 2\n");
  ASSERT_EQ(averaged.samples.size(), 2u) << "means 5, 4, 10: a-c and b-c are more than 2 apart, a-b is not";
  EXPECT_EQ(averaged.samples[0].fields["clip_a"], "a/test/1.wav|x");
  EXPECT_EQ(averaged.samples[0].fields["first_preferred"], "no");
  const std::string empty = aeval::testing::config_error([&] { pairs("    only: {system: []}\n"); });
  EXPECT_NE(empty.find("only: one field and the value it must have, or a list of them"), std::string::npos) << empty;
}

// PAM as AudioBERTScore reads it: each text's real recording is the reference of the other clips; a text with two
// recordings is an error, and one whose recordings all rate too low leaves nothing, which is an error too.
TEST(RatedClips, AReferenceSystemsClipIsTheOthersReferenceAudio) {
  TempDir dir;
  const std::string header = "Text,Model,File Name,OVL,REL\n";
  write_bytes(dir / "pam.csv", header + "x,real,r0,4,4\nx,gen,g0,3,2\ny,gen,g1,2,5\nz,real,r2,4,3\nz,gen,g2,1,1\n");
  write_bytes(dir / "twice.csv", header + "x,real,r0,4,4\nx,real,r1,4,4\n");
  const auto entry = [&](const char* file) {
    return fmt::format("p:\n  class: rated_clips\n  args:\n    path: ../../{}\n    audio_column: File Name\n"
                       "    folder_column: Model\n    text_column: Text\n    rating_column: REL\n    split_column: \"\"\n"
                       "    rating_fields: {{human_ovl: OVL}}\n    reference_system: real\n    min_reference_rating: 3.5\n",
                       file);
  };
  const Dataset d = load(dir, entry("pam.csv"), "p");
  ASSERT_EQ(d.samples.size(), 1u) << "y has no recording, z's rates 3";
  EXPECT_EQ(d.samples[0].id, "gen/g0|x");
  EXPECT_EQ(fs::path(d.samples[0].fields["reference_audio"].get<std::string>()).filename(), "r0");
  EXPECT_DOUBLE_EQ(d.samples[0].fields["human_ovl"].get<double>(), 3);
  const std::string twice = data_error([&] { load(dir, entry("twice.csv"), "p"); });
  EXPECT_NE(twice.find("twice.csv: two real clips for the text 'x'"), std::string::npos) << twice;
  write_bytes(dir / "low.csv", header + "z,real,r2,4,3\nz,gen,g2,1,1\n");
  const std::string low = data_error([&] { load(dir, entry("low.csv"), "p"); });
  EXPECT_NE(low.find("low.csv: no clip has a real clip of its text rated 3.5 or more"), std::string::npos) << low;
}

// CompA's layout: four samples an item, and an item short of a caption or a column that is not there are errors.
TEST(CaptionPairs, EachClipWithEachCaptionAndErrorsNamingTheItemOrTheColumns) {
  TempDir dir;
  const std::string header = "pair_caption,reversed_pair_caption,pair_file,reversed_pair_file\n";
  write_bytes(dir / "good.csv", header + "\"A dog barks, then a bell rings\",A bell rings then a dog barks,1.wav,2.wav\n");
  write_bytes(dir / "short.csv", header + "a,b,1.wav,2.wav\nc,,3.wav,4.wav\n");
  const auto entry = [&](const char* file, const char* extra = "") {
    return fmt::format("c:\n  class: caption_pairs\n  args:\n    path: ../../{}\n    audio_dir: ../../clips\n{}", file, extra);
  };
  const Dataset d = load(dir, entry("good.csv"), "c");
  ASSERT_EQ(d.samples.size(), 4u);
  EXPECT_EQ(d.samples[1].id, "1:clip1-caption2");
  EXPECT_EQ(d.samples[1].reference, "A bell rings then a dog barks");
  EXPECT_EQ(d.samples[1].audio.filename(), "1.wav");
  EXPECT_EQ(d.samples[2].reference, "A dog barks, then a bell rings");
  EXPECT_EQ(d.samples[2].audio.filename(), "2.wav");
  EXPECT_EQ(d.samples[2].fields["clip"], 2);
  const std::string short_item = data_error([&] { load(dir, entry("short.csv"), "c"); });
  EXPECT_NE(short_item.find("short.csv: item 2 has no reversed_pair_caption"), std::string::npos) << short_item;
  const std::string column = data_error([&] { load(dir, entry("good.csv", "    clip_columns: [a, b]\n"), "c"); });
  EXPECT_NE(column.find("good.csv: no column 'a'; its columns are: pair_caption, reversed_pair_caption, pair_file"),
            std::string::npos)
      << column;
}

// FENSE's layout: a sample per pair people did not tie on, the votes last (an AudioCaps-Eval pair holds a 0 before
// them), a null kind skipped, a clip named by raw_name or else its YouTube id with .wav; errors name clip and kind.
TEST(CaptionPreferences, APairPerUntiedChoiceNamedByItsClipAndKind) {
  TempDir dir;
  write_bytes(dir / "eval.json", R"([
    {"HC": ["a dog barks", "a cat meows", "human_1", "human_2", [1, 1, 0, -1]],
     "HI": ["rain falls", "a car passes", "x_human_1", "y_human_2", [-1, -1, 0, 1]],
     "HM": null,
     "MM_1": ["birds sing", "birds chirp", "fc", "rl", 0, [1, -1, 0, 0]],
     "MM_2": ["wind blows", "a bell rings", "fc", "attn", [1, 1, 1, 1]],
     "raw_name": "clip_0.000_10.000.wav", "audio_id": "clip", "references": ["a dog barks"]},
    {"HC": ["water runs", "a tap drips", "human_3", "human_4", [0, 0, 0, 0]],
     "MM_1": ["a man speaks", "a woman speaks", "fcbeam", "attnbeam", 0, [-1, 0, -1, -1]],
     "audio_id": "YouTubeId", "references": []}
  ])");
  const auto entry = [&](const char* file, const char* extra = "") {
    return fmt::format("f:\n  class: caption_preferences\n  args:\n    path: ../../{}\n    audio_dir: ../../clips\n"
                       "    name_fields: [raw_name, audio_id]\n    audio_suffix: .wav\n{}",
                       file, extra);
  };
  const Dataset d = load(dir, entry("eval.json"), "f");
  ASSERT_EQ(d.samples.size(), 4u) << "two tied pairs and a null one left out";
  EXPECT_EQ(d.description["ties_left_out"], 2);
  const auto& hc = d.samples[0];
  EXPECT_EQ(hc.id, "clip_0.000_10.000.wav:HC");
  EXPECT_EQ(hc.audio.filename(), "clip_0.000_10.000.wav");
  EXPECT_EQ(hc.audio.parent_path().filename(), "clips");
  EXPECT_EQ(hc.fields["text_a"], "a dog barks");
  EXPECT_EQ(hc.fields["text_b"], "a cat meows");
  EXPECT_EQ(hc.fields["first_preferred"], "yes");
  EXPECT_EQ(hc.fields["category"], "HC");
  EXPECT_FALSE(hc.reference) << "two captions, no reference text";
  EXPECT_EQ(d.samples[1].id, "clip_0.000_10.000.wav:HI");
  EXPECT_EQ(d.samples[1].fields["first_preferred"], "no");
  EXPECT_EQ(d.samples[2].id, "clip_0.000_10.000.wav:MM_2");
  EXPECT_EQ(d.samples[2].fields["category"], "MM");
  EXPECT_EQ(d.samples[3].id, "YouTubeId.wav:MM_1");
  EXPECT_EQ(d.samples[3].audio.filename(), "YouTubeId.wav");
  EXPECT_EQ(d.samples[3].fields["votes"], nlohmann::json::parse("[-1, 0, -1, -1]"));
  EXPECT_EQ(d.samples[3].fields["first_preferred"], "no");

  write_bytes(dir / "vote.json", R"([{"raw_name": "a.wav", "HC": ["a", "b", "s", "t", [1, 2]]}])");
  const std::string vote = data_error([&] { load(dir, entry("vote.json"), "f"); });
  EXPECT_NE(vote.find("vote.json: clip 'a.wav', HC: a vote other than 1, 0 or -1: 2"), std::string::npos) << vote;
  write_bytes(dir / "shape.json", R"([{"raw_name": "a.wav", "HI": ["a", "b", [1]]}])");
  const std::string shape = data_error([&] { load(dir, entry("shape.json"), "f"); });
  EXPECT_NE(shape.find("clip 'a.wav', HI: not [caption 1, caption 2, source 1, source 2, [votes]]"), std::string::npos)
      << shape;
  write_bytes(dir / "nameless.json", R"([{"HC": ["a", "b", "s", "t", [1]]}])");
  const std::string nameless = data_error([&] { load(dir, entry("nameless.json"), "f"); });
  EXPECT_NE(nameless.find("nameless.json: clip 1 has none of raw_name, audio_id"), std::string::npos) << nameless;
  write_bytes(dir / "tied.json", R"([{"raw_name": "a.wav", "HC": ["a", "b", "s", "t", [1, -1]]}])");
  const std::string tied = data_error([&] { load(dir, entry("tied.json"), "f"); });
  EXPECT_NE(tied.find("tied.json: no pair of captions that people did not tie on"), std::string::npos) << tied;
  write_bytes(dir / "object.json", R"({"HC": []})");
  const std::string object = data_error([&] { load(dir, entry("object.json"), "f"); });
  EXPECT_NE(object.find("object.json: not a JSON array of clips"), std::string::npos) << object;
}

TEST(CaptionPreferences, BracesLayoutsEveryMemberAPairAndTheHumanCaptionRightInHallucination) {
  TempDir dir;
  write_bytes(dir / "main.json", R"([
    {"file_name": "a.wav", "references": ["a dog barks"],
     "Human-Human": ["a dog barks", "a dog yaps", "human", "human", [1, -1, -1]],
     "Machine-Machine_2": ["a dog", "a cat", "qwen", "gama", [1, 1, 1]],
     "Human-Machine_1": ["a dog barks", "a cat", "human", "gama", [1, -1]]}
  ])");
  const Dataset main = load(dir,
                            "m:\n  class: caption_preferences\n  args:\n    path: ../../main.json\n"
                            "    name_fields: [file_name]\n    kinds: [\"*\"]\n"
                            "    categories: {Human-Human: HH, Human-Machine: HM, Machine-Machine: MM}\n",
                            "m");
  ASSERT_EQ(main.samples.size(), 2u) << "references hold no pair; the tied pair is left out";
  EXPECT_EQ(main.samples[0].id, "a.wav:Human-Human");
  EXPECT_EQ(main.samples[0].fields["category"], "HH");
  EXPECT_EQ(main.samples[0].fields["first_preferred"], "no");
  EXPECT_EQ(main.samples[1].id, "a.wav:Machine-Machine_2") << "in the order of their names";
  EXPECT_EQ(main.samples[1].fields["category"], "MM");

  const auto hallucination = [&](const char* file) {
    return load(dir,
                fmt::format("h:\n  class: caption_preferences\n  args:\n    path: ../../{}\n"
                            "    name_fields: [file_name]\n    kinds: [\"*\"]\n    truth: human_source\n",
                            file),
                "h");
  };
  write_bytes(dir / "hallu.json", R"([
    {"file_name": "b.wav",
     "caption_1": ["rain falls", "hail falls", "human", "hallucination", {"references": ["rain falls"]}],
     "caption_2": ["a cat meows", "a dog barks", "hallucination", "human", {"references": []}]}
  ])");
  const Dataset h = hallucination("hallu.json");
  ASSERT_EQ(h.samples.size(), 2u);
  EXPECT_EQ(h.samples[0].fields["first_preferred"], "yes");
  EXPECT_EQ(h.samples[1].fields["first_preferred"], "no");
  EXPECT_EQ(h.samples[1].fields["category"], "caption") << "no categories given: the name up to its first _";
  EXPECT_FALSE(h.samples[0].fields.contains("votes"));
  write_bytes(dir / "nohuman.json", R"([{"file_name": "b.wav", "caption_1": ["x", "y", "human", "human", {}]}])");
  const std::string both = data_error([&] { hallucination("nohuman.json"); });
  EXPECT_NE(both.find("nohuman.json: clip 'b.wav', caption_1: not one caption whose source is human: "
                      "[\"human\",\"human\"]"),
            std::string::npos)
      << both;
}

TEST(WavPathJsonl, WavPathIsResolvedAgainstTheFileAndTheReferenceFieldIsConfigurable) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  fs::create_directories(dir / "ue" / "wavs");
  fs::copy_file(kTestData / "cards" / "002.wav", dir / "ue" / "wavs" / "q1.wav");
  write_bytes(dir / "ue" / "questions.jsonl",
              "{\"WavPath\": \"wavs/q1.wav\", \"Question\": \"Which cards?\", \"answer\": \"four queen of clubs\"}\n"
              "{\"WavPath\": \"/abs/q2.wav\", \"Question\": \"And now?\", \"answer\": \"none\"}\n");
  const Dataset d = load(dir,
                         "ue:\n  class: wavpath_jsonl\n  args:\n    path: ../../ue/questions.jsonl\n"
                         "    text_field: answer\n",
                         "ue");
  ASSERT_EQ(d.samples.size(), 2u);
  EXPECT_EQ(d.samples[0].id, "1") << "rows without an id are numbered by line";
  EXPECT_EQ(d.samples[0].audio, dir / "ue" / "wavs" / "q1.wav");
  EXPECT_EQ(d.samples[0].fields["WavPath"], (dir / "ue" / "wavs" / "q1.wav").string());
  EXPECT_EQ(d.samples[0].reference, "four queen of clubs");
  EXPECT_EQ(d.samples[0].fields["Question"], "Which cards?");
  EXPECT_EQ(d.samples[1].audio, "/abs/q2.wav");
  EXPECT_EQ(aeval::decode_audio(d.samples[0].audio).frames(),
            aeval::decode_audio(kTestData / "cards" / "002.wav").frames());
}

TEST(DatasetSource, AUrlIsDownloadedOnceVerifiedAndUnpackedIntoTheCacheWithAMemberInside) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  const ScopedCache cache;
  fs::create_directories(dir / "tree" / "corpus" / "test" / "audio");
  for (const char* id : {"001", "002"})
    fs::copy_file(kTestData / "cards" / (std::string(id) + ".wav"),
                  dir / "tree" / "corpus" / "test" / "audio" / (std::string(id) + ".wav"));
  write_bytes(dir / "tree" / "corpus" / "test" / "wav.scp", "001 audio/001.wav\n002 audio/002.wav\n");
  write_bytes(dir / "tree" / "corpus" / "test" / "text", "001 TEN OF CLUBS\n002 FOUR QUEEN OF CLUBS\n");
  const std::string tar =
      "tar -cjf " + (dir / "corpus.tar.bz2").string() + " -C " + (dir / "tree").string() + " corpus";
  ASSERT_EQ(std::system(tar.c_str()), 0) << tar;
  const aeval::testing::FileServer server("/files/corpus.tar.bz2", read_bytes(dir / "corpus.tar.bz2"));
  const std::string yaml = "k:\n  class: kaldi\n  args:\n    url: " + server.url("/files/corpus.tar.bz2") +
                           "\n    sha256: " + aeval::sha256_of_file(dir / "corpus.tar.bz2") +
                           "\n    member: corpus/test\n"
                           "wrong:\n  class: kaldi\n  args:\n    url: " +
                           server.url("/files/corpus.tar.bz2") + "\n    sha256: " + std::string(64, '0') + "\n";
  const fs::path extracted = cache.path() / "aeval" / "datasets" / "k" / "extracted";
  for (int load_number = 0; load_number < 2; ++load_number) {
    const Dataset d = load(dir, yaml, "k");
    ASSERT_EQ(d.samples.size(), 2u);
    EXPECT_EQ(d.samples[1].audio, extracted / "corpus" / "test" / "audio" / "002.wav");
    EXPECT_EQ(read_bytes(d.samples[1].audio), read_bytes(kTestData / "cards" / "002.wav"));
    EXPECT_EQ(d.samples[1].reference, "FOUR QUEEN OF CLUBS");
    EXPECT_EQ(d.description["url"], server.url("/files/corpus.tar.bz2"));
  }
  EXPECT_EQ(server.requests(), 1) << "a cached download was fetched again";
  try {
    load(dir, yaml, "wrong");
    ADD_FAILURE() << "an archive whose digest differs from the entry's was accepted";
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << e.what();
  }
  EXPECT_FALSE(fs::exists(cache.path() / "aeval" / "datasets" / "wrong" / "extracted"));
}

TEST(DatasetSource, EitherAPathOrAUrlWithItsSha256) {
  TempDir dir;
  std::string message = aeval::testing::config_error([&] { load(dir, "k:\n  class: kaldi\n  args: {}\n", "k"); });
  EXPECT_NE(message.find("give either `path` or `url`"), std::string::npos) << message;
  message = aeval::testing::config_error([&] {
    load(dir, "k:\n  class: kaldi\n  args:\n    path: ../../x\n    url: https://example.org/k.tar.gz\n", "k");
  });
  EXPECT_NE(message.find("give either `path` or `url`"), std::string::npos) << message;
  message = aeval::testing::config_error(
      [&] { load(dir, "k:\n  class: kaldi\n  args:\n    url: https://example.org/k.tar.gz\n", "k"); });
  EXPECT_NE(message.find("`url` needs the file's `sha256`"), std::string::npos) << message;
  message = aeval::testing::config_error(
      [&] { load(dir, "k:\n  class: kaldi\n  args:\n    path: ../../data\n    member: sub\n", "k"); });
  EXPECT_NE(message.find("`member` applies only to archives"), std::string::npos) << message;
}

}  // namespace
