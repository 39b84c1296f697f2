// Writes a small dataset in CelebA's layout (img_align_celeba/*.jpg,
// list_attr_celeba.txt, list_eval_partition.txt) for tests and benchmarks:
// real CelebA cannot be downloaded here. Each 178x218 image is a drawn face
// whose mouth curves up when attribute 31, "Smiling", is 1: a signal the
// smile classifier can learn, under noise, colour and position jitter.
//
// usage: make_fake_celeba OUT_DIR [IMAGES] [SEED]
#include "image.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

static const char *const Attributes[40] = {
    "5_o_Clock_Shadow", "Arched_Eyebrows", "Attractive", "Bags_Under_Eyes", "Bald",
    "Bangs", "Big_Lips", "Big_Nose", "Black_Hair", "Blond_Hair", "Blurry", "Brown_Hair",
    "Bushy_Eyebrows", "Chubby", "Double_Chin", "Eyeglasses", "Goatee", "Gray_Hair",
    "Heavy_Makeup", "High_Cheekbones", "Male", "Mouth_Slightly_Open", "Mustache",
    "Narrow_Eyes", "No_Beard", "Oval_Face", "Pale_Skin", "Pointy_Nose",
    "Receding_Hairline", "Rosy_Cheeks", "Sideburns", "Smiling", "Straight_Hair",
    "Wavy_Hair", "Wearing_Earrings", "Wearing_Hat", "Wearing_Lipstick",
    "Wearing_Necklace", "Wearing_Necktie", "Young"};

namespace {

struct Colour {
  uint8_t r, g, b;
};

/// Fills the part of the ellipse centred at (cx, cy) with half-axes (ax, ay)
/// that \p half selects: 0 all of it, 1 below the centre, -1 above it.
void fillEllipse(celeba::Image &img, int cx, int cy, int ax, int ay, int half,
                 Colour c) {
  for (int y = std::max(0, cy - ay); y <= std::min(img.height - 1, cy + ay);
       ++y) {
    if ((half > 0 && y < cy) || (half < 0 && y > cy))
      continue;
    for (int x = std::max(0, cx - ax); x <= std::min(img.width - 1, cx + ax);
         ++x) {
      double dx = double(x - cx) / ax, dy = double(y - cy) / ay;
      if (dx * dx + dy * dy <= 1.0) {
        uint8_t *p = img.at(x, y);
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
      }
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR [IMAGES] [SEED]\n", argv[0]);
    return 2;
  }
  const std::string root = argv[1];
  const int images = argc > 2 ? std::atoi(argv[2]) : 1000;
  const unsigned seed = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 1;
  if (images < 10) {
    std::fprintf(stderr, "%s: IMAGES must be at least 10\n", argv[0]);
    return 2;
  }
  std::filesystem::create_directories(root + "/img_align_celeba");
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> coin(0, 1), jitter(-10, 10), shade(40, 220);
  std::normal_distribution<double> noise(0.0, 18.0);
  std::vector<int> noiseTable(1 << 16);
  for (int &n : noiseTable)
    n = static_cast<int>(std::lround(noise(rng)));

  std::ofstream attr(root + "/list_attr_celeba.txt"), part(root + "/list_eval_partition.txt");
  attr << images << "\n";
  for (int a = 0; a < 40; ++a)
    attr << Attributes[a] << (a + 1 < 40 ? " " : "\n");
  for (int i = 0; i < images; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%06d.jpg", i + 1);
    const bool smiling = coin(rng);
    const uint8_t r = shade(rng), g = shade(rng), b = shade(rng);
    celeba::Image img(178, 218, r, g, b);
    const int cx = 89 + jitter(rng), cy = 109 + jitter(rng);
    fillEllipse(img, cx, cy, 55, 72, 0, {220, 180, 150});
    fillEllipse(img, cx - 22, cy - 20, 7, 7, 0, {40, 40, 40});
    fillEllipse(img, cx + 22, cy - 20, 7, 7, 0, {40, 40, 40});
    if (smiling) // an open smile: a wide bright half-ellipse, corners up
      fillEllipse(img, cx, cy + 30, 40, 26, 1, {250, 250, 250});
    else // a closed frown: a dark half-ellipse, corners down
      fillEllipse(img, cx, cy + 50, 40, 16, -1, {60, 20, 20});
    // Gaussian pixel noise, drawn from a table: a draw per value from
    // std::normal_distribution cost most of the generator's time.
    for (uint8_t &v : img.rgb)
      v = static_cast<uint8_t>(
          std::clamp(v + noiseTable[rng() & 0xffff], 0, 255));
    try {
      celeba::writeJpeg(root + "/img_align_celeba/" + name, img);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
      return 1;
    }

    attr << name;
    for (int a = 0; a < 40; ++a)
      attr << ' ' << (a == 31 ? (smiling ? 1 : -1) : (coin(rng) ? 1 : -1));
    attr << "\n";
    // CelebA's split: the first 80% train, then 10% valid, 10% test.
    part << name << ' ' << (i < images * 8 / 10 ? 0 : i < images * 9 / 10 ? 1 : 2) << "\n";
  }
  std::printf("%s: %d images\n", root.c_str(), images);
  return 0;
}
