//===--- ProjectRun.cpp - analyse many files, in parallel -----------------===//
//
// The per-file run is clang-tidy's runClangTidy with one addition: a second
// AST consumer records where each function in the project's own files begins
// and ends, so findings can name their enclosing function (baseline keys and
// SARIF logical locations).
//
//===----------------------------------------------------------------------===//

#include "ProjectRun.h"
#include "ResultCache.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "devplace/Compat.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <mutex>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;
using namespace llvm;

namespace devplace_tool {

namespace {

class FunctionSpans : public RecursiveASTVisitor<FunctionSpans> {
public:
  FunctionSpans(SourceManager &SM, FunctionIndex &Out) : SM(SM), Out(Out) {}

  bool TraverseDecl(Decl *D) {
    // Library headers hold most of a LibTorch TU; findings are not there.
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool TraverseStmt(Stmt *) { return true; } // bodies hold no named functions

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody())
      return true;
    CharSourceRange R = SM.getExpansionRange(FD->getSourceRange());
    auto [BeginFile, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    if (BeginFile != EndFile || BeginFile.isInvalid())
      return true;
    auto Entry = SM.getFileEntryRefForID(BeginFile);
    if (!Entry)
      return true;
    std::string Name = FD->getQualifiedNameAsString();
    Out[absolutePath(Entry->getName(), BuildDir())].push_back({Begin, End, Name});
    return true;
  }

private:
  std::string BuildDir() {
    auto CWD = SM.getFileManager().getVirtualFileSystem().getCurrentWorkingDirectory();
    return CWD ? *CWD : std::string();
  }
  SourceManager &SM;
  FunctionIndex &Out;
};

class FunctionIndexer : public ASTConsumer {
public:
  explicit FunctionIndexer(FunctionIndex &Out) : Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    FunctionSpans(Ctx.getSourceManager(), Out).TraverseAST(Ctx);
  }

private:
  FunctionIndex &Out;
};

class Action : public ASTFrontendAction {
public:
  Action(ClangTidyASTConsumerFactory &Tidy, FunctionIndex &Functions)
      : Tidy(Tidy), Functions(Functions) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(Tidy.createASTConsumer(CI, File));
    Consumers.push_back(std::make_unique<FunctionIndexer>(Functions));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  ClangTidyASTConsumerFactory &Tidy;
  FunctionIndex &Functions;
};

class ActionFactory : public FrontendActionFactory {
public:
  ActionFactory(ClangTidyContext &Context, FunctionIndex &Functions,
                IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS)
      : Tidy(Context, std::move(FS)), Functions(Functions) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Tidy, Functions);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy does: code may test __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // No "N errors generated." from each of many parallel files: the
    // summary line counts what failed.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    return FrontendActionFactory::runInvocation(Invocation, Files, PCHContainerOps,
                                                DiagConsumer);
  }

private:
  ClangTidyASTConsumerFactory Tidy;
  FunctionIndex &Functions;
};

} // namespace

/// The cache key of everything but the files the compiler will read.
static std::string cacheKey(ResultCache &Cache, const std::string &File,
                            const CompilationDatabase &Compilations,
                            ClangTidyContext &Context, bool ApplyAnyFix) {
  SmallString<256> Abs(File);
  sys::fs::make_absolute(Abs);
  ClangTidyOptions Options = Context.getOptionsForFile(Abs);
  Options.User.reset(); // read by no devplace check; CI machines differ
  std::vector<std::string> Commands;
  for (const CompileCommand &C : Compilations.getCompileCommands(Abs)) {
    std::string Text = C.Directory + '\0' + C.Filename;
    for (const std::string &Arg : C.CommandLine)
      Text += '\0' + Arg;
    Commands.push_back(std::move(Text));
  }
  return Cache.key(Abs, configurationAsText(Options), Commands, ApplyAnyFix);
}

static FileResult analyseFile(const std::string &File,
                              const CompilationDatabase &Compilations,
                              const OptionsProviderFactory &MakeOptions,
                              bool ApplyAnyFix, ResultCache *Cache) {
  FileResult Result;
  Result.File = File;
  ClangTidyContext Context(MakeOptions());
  std::string Key;
  if (Cache) {
    Key = cacheKey(*Cache, File, Compilations, Context, ApplyAnyFix);
    if (std::optional<FileResult> Hit = Cache->lookup(Key)) {
      Hit->File = File;
      Hit->FromCache = true;
      return std::move(*Hit);
    }
  }
  // A file system with its own working directory: the real one would make
  // ClangTool chdir the whole process, under the other threads. With a
  // cache, it also records every file the compiler looks at.
  IntrusiveRefCntPtr<DependencyRecorder> Recorder;
  IntrusiveRefCntPtr<vfs::FileSystem> Base = vfs::createPhysicalFileSystem();
  if (Cache)
    Base = Recorder = makeIntrusiveRefCnt<DependencyRecorder>(Base);
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Base);
  ClangTool Tool(Compilations, {File}, std::make_shared<PCHContainerOperations>(), FS);
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(
      [&Context](const CommandLineArguments &Args, StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
            ++I; // after the compiler's name
          Adjusted.insert(I, Opts.ExtraArgsBefore->begin(), Opts.ExtraArgsBefore->end());
        }
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(), Opts.ExtraArgs->end());
        return Adjusted;
      });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());

  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true, ApplyAnyFix);
  clang::devplace::compat::TidyDiagnosticsEngine DE(Context, DiagConsumer);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  ActionFactory Factory(Context, Result.Functions, FS);
  Tool.run(&Factory);
  Result.Errors = DiagConsumer.take();
  if (Cache)
    Cache->store(Key, Result, Recorder->take());
  return Result;
}

void analyseFiles(const std::vector<std::string> &Files,
                  const CompilationDatabase &Compilations,
                  const OptionsProviderFactory &MakeOptions, bool ApplyAnyFix,
                  unsigned Jobs, ResultCache *Cache,
                  const std::function<void(FileResult &)> &Done) {
  std::mutex DoneLock;
  auto RunOne = [&](const std::string &File) {
    FileResult R =
        analyseFile(File, Compilations, MakeOptions, ApplyAnyFix, Cache);
    std::lock_guard<std::mutex> Guard(DoneLock);
    Done(R);
  };
  if (Jobs <= 1 || Files.size() <= 1) {
    for (const std::string &F : Files)
      RunOne(F);
    return;
  }
  clang::devplace::compat::ThreadPool Pool(hardware_concurrency(Jobs));
  for (const std::string &F : Files)
    Pool.async([&RunOne, &F] { RunOne(F); });
  Pool.wait();
}

} // namespace devplace_tool
