// Writes a small dataset in CelebA's layout (img_align_celeba/*.jpg,
// list_attr_celeba.txt, list_eval_partition.txt) for tests and benchmarks:
// real CelebA cannot be downloaded here. Each 178x218 image is a drawn face
// whose mouth curves up when attribute 31, "Smiling", is 1: a signal the
// smile classifier can learn, under noise, colour and position jitter.
//
// usage: make_fake_celeba OUT_DIR [IMAGES] [SEED]
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

static const char *const Attributes[40] = {
    "5_o_Clock_Shadow", "Arched_Eyebrows", "Attractive", "Bags_Under_Eyes", "Bald",
    "Bangs", "Big_Lips", "Big_Nose", "Black_Hair", "Blond_Hair", "Blurry", "Brown_Hair",
    "Bushy_Eyebrows", "Chubby", "Double_Chin", "Eyeglasses", "Goatee", "Gray_Hair",
    "Heavy_Makeup", "High_Cheekbones", "Male", "Mouth_Slightly_Open", "Mustache",
    "Narrow_Eyes", "No_Beard", "Oval_Face", "Pale_Skin", "Pointy_Nose",
    "Receding_Hairline", "Rosy_Cheeks", "Sideburns", "Smiling", "Straight_Hair",
    "Wavy_Hair", "Wearing_Earrings", "Wearing_Hat", "Wearing_Lipstick",
    "Wearing_Necklace", "Wearing_Necktie", "Young"};

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

  std::ofstream attr(root + "/list_attr_celeba.txt"), part(root + "/list_eval_partition.txt");
  attr << images << "\n";
  for (int a = 0; a < 40; ++a)
    attr << Attributes[a] << (a + 1 < 40 ? " " : "\n");
  for (int i = 0; i < images; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%06d.jpg", i + 1);
    const bool smiling = coin(rng);
    cv::Mat img(218, 178, CV_8UC3, cv::Scalar(shade(rng), shade(rng), shade(rng)));
    const cv::Point centre(89 + jitter(rng), 109 + jitter(rng));
    cv::ellipse(img, centre, cv::Size(55, 72), 0, 0, 360, cv::Scalar(150, 180, 220), cv::FILLED);
    cv::circle(img, centre + cv::Point(-22, -20), 7, cv::Scalar(40, 40, 40), cv::FILLED);
    cv::circle(img, centre + cv::Point(22, -20), 7, cv::Scalar(40, 40, 40), cv::FILLED);
    const cv::Point mouth = centre + cv::Point(0, 30);
    if (smiling) // an open smile: a wide bright half-ellipse, corners up
      cv::ellipse(img, mouth, cv::Size(40, 26), 0, 0, 180, cv::Scalar(250, 250, 250), cv::FILLED);
    else // a closed frown: a dark half-ellipse, corners down
      cv::ellipse(img, mouth + cv::Point(0, 20), cv::Size(40, 16), 0, 180, 360,
                  cv::Scalar(20, 20, 60), cv::FILLED);
    cv::Mat n(img.size(), CV_16SC3);
    cv::randn(n, 0, noise.stddev());
    cv::Mat noisy;
    img.convertTo(noisy, CV_16SC3);
    noisy += n;
    noisy.convertTo(img, CV_8UC3);
    cv::imwrite(root + "/img_align_celeba/" + name, img);

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
