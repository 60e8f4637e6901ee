// The predictions file answers each sample with its own row, read again from the file by its place: ids as
// strings or numbers, Windows line ends, blank lines; a missing id fails its sample, a duplicate stops the load
// naming its line.
#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "models/predictions_file.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::TempDir;

std::string answer(aeval::models::Model& model, const std::string& id) {
  aeval::models::Request request;
  request.sample_id = id;
  return model.infer_and_wait(request).text;
}

TEST(PredictionsFile, EachSampleGetsItsOwnRow) {
  TempDir dir;
  std::string rows = "{\"id\": \"a\", \"prediction\": \"first\"}\r\n\n   \n{\"id\": 7, \"prediction\": \"seventh\"}\n";
  for (int i = 0; i < 5000; ++i) rows += "{\"id\": \"u" + std::to_string(i) + "\", \"prediction\": \"p" + std::to_string(i) + "\"}\n";
  rows += "{\"id\": \"last\", \"prediction\": \"no line end\"}";
  aeval::testing::write_bytes(dir / "p.jsonl", rows);
  const auto model = aeval::models::make_predictions_file({dir / "p.jsonl"});
  EXPECT_EQ(answer(*model, "a"), "first");
  EXPECT_EQ(answer(*model, "7"), "seventh") << "a number id answers the sample whose id is its text";
  EXPECT_EQ(answer(*model, "u4321"), "p4321");
  EXPECT_EQ(answer(*model, "u0"), "p0");
  EXPECT_EQ(answer(*model, "last"), "no line end");
  EXPECT_EQ(model->identity()["rows"], 5003);
  try {
    answer(*model, "u5000");
    FAIL() << "an id without a row answered";
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no prediction for sample 'u5000'"), std::string::npos) << e.what();
  }
}

TEST(PredictionsFile, ADuplicateIdOrAMalformedRowStopsTheLoadNamingItsLine) {
  TempDir dir;
  const auto error_of = [&](const std::string& rows) {
    aeval::testing::write_bytes(dir / "p.jsonl", rows);
    try {
      aeval::models::make_predictions_file({dir / "p.jsonl"});
    } catch (const aeval::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string a = "{\"id\": \"a\", \"prediction\": \"x\"}\n", b = "{\"id\": \"b\", \"prediction\": \"y\"}\n";
  EXPECT_NE(error_of(a + b + "\n" + a).find("p.jsonl:4: duplicate id 'a'"), std::string::npos) << error_of(a + b + "\n" + a);
  EXPECT_NE(error_of(a + "{\"id\": \"c\"}\n").find("p.jsonl:2: needs 'id' and a string 'prediction'"), std::string::npos);
  EXPECT_NE(error_of(a + "[1]\n").find("p.jsonl:2: not a JSON object"), std::string::npos);
}

}  // namespace
