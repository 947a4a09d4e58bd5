package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No array-by-constant call that leaves autograd a freed constant (see {@link Scalars}) comes back
 * into the main sources. Javac resolves every call, so {@code x.mul(scale)} with a {@code float
 * scale} is caught as surely as {@code x.mul(2f)}.
 *
 * <p>Which DJL 0.36 calls (PtNDArray, NDArrays, NDArrayEx, Activation): mul, div, pow, maximum and
 * minimum by a Number, their in-place forms, scaleGradient, swish and relu6 create the constant,
 * close it at once, and PyTorch's backward of the op reads it. add, sub and mod by a Number are
 * left alone (their backward reads no operand), as is clip (the bounds go to PyTorch as numbers):
 * ScalarsTest checks them. NDArrays' number-first div and pow keep their constant on the manager,
 * but are caught all the same.
 */
class ScalarsGuardTest {

  private static final Set<String> UNSAFE = Set.of("mul", "div", "pow", "maximum", "minimum", "muli", "divi", "powi");
  private static final Set<String> UNSAFE_ANY_ARGUMENTS = Set.of("scaleGradient", "swish", "relu6");
  private static final Pattern NAMES =
      Pattern.compile("\\b(mul|div|pow|maximum|minimum|muli|divi|powi|scaleGradient|swish|relu6)\\(");

  /** Calls outside any backward pass, as {@code File: call}, with why. */
  private static final Map<String, String> OUTSIDE_AUTOGRAD = Map.ofEntries(
      Map.entry("I2GnnNetwork: runningMean.muli(1 - batchWeight)", "running statistics: a buffer without gradient"),
      Map.entry("I2GnnNetwork: runningVar.muli(1 - batchWeight)", "running statistics: a buffer without gradient"),
      Map.entry("TorchScriptBlock: p.getValue().muli(0)", "initialisation, grad mode off"),
      Map.entry("SerialAdam: g.mul(1 - BETA1)", "optimiser step, grad mode off"),
      Map.entry("SerialAdam: m.muli(BETA1)", "optimiser step, grad mode off"),
      Map.entry("SerialAdam: g.muli(g).muli(1 - BETA2)", "optimiser step, grad mode off"),
      Map.entry("SerialAdam: v.muli(BETA2)", "optimiser step, grad mode off"),
      Map.entry("SerialAdam: v.pow(-0.5F)", "optimiser step, grad mode off"),
      Map.entry("SerialAdam: rootInverse.pow(-1.0F)", "optimiser step, grad mode off"),
      Map.entry("SerialAdam: ratio.muli(corrected)", "optimiser step, grad mode off"));

  @Test
  void noConstantThatBackwardReadsIsFreedFirst() throws IOException {
    List<String> calls = unsafeCalls(Path.of("src/main/java"));
    List<String> allowed = calls.stream().filter(c -> OUTSIDE_AUTOGRAD.containsKey(withoutLine(c))).toList();
    assertThat(calls).as("through engine.Scalars (or by an array on the pass's manager); a division: Scalars.mul"
        + " by 1/c").containsExactlyInAnyOrderElementsOf(allowed);
    assertThat(allowed.stream().map(ScalarsGuardTest::withoutLine)).as("exceptions still in the code")
        .containsExactlyInAnyOrderElementsOf(OUTSIDE_AUTOGRAD.keySet());
  }

  /** {@code File:line: call} as {@code File: call}. */
  private static String withoutLine(String call) {
    return call.replaceFirst(":\\d+:", ":");
  }

  @Test
  void theGuardSeesAConstantThroughAVariable(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("Scaled.java"), """
        import ai.djl.ndarray.NDArray;
        class Scaled {
          NDArray f(NDArray x, float scale) {
            return x.add(1f).mul(scale).maximum(x.mul(x.getManager().create(scale)));
          }
        }
        """);
    assertThat(unsafeCalls(dir)).containsExactly("Scaled:4: x.add(1.0F).mul(scale)");
  }

  /** {@code File:line: call} for every unsafe call in the sources under {@code root}. */
  static List<String> unsafeCalls(Path root) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(root)) {
      // only files that name the calls at all: javac then attributes half the sources
      files = s.filter(p -> p.toString().endsWith(".java") && NAMES.matcher(read(p)).find()).toList();
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null);
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    JavacTask task = (JavacTask) javac.getTask(null, fm, null, List.of("-proc:none", "-cp", classPath), null,
        fm.getJavaFileObjectsFromPaths(files));
    Iterable<? extends CompilationUnitTree> units = task.parse();
    task.analyze();
    Trees trees = Trees.instance(task);
    List<String> found = new ArrayList<>();
    for (CompilationUnitTree unit : units) {
      String file = Path.of(unit.getSourceFile().toUri()).getFileName().toString().replace(".java", "");
      new TreePathScanner<Void, Void>() {
        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
          Element e = trees.getElement(getCurrentPath());
          if (e instanceof ExecutableElement m && unsafe(m)) {
            long line = unit.getLineMap().getLineNumber(trees.getSourcePositions().getStartPosition(unit, call));
            found.add(file + ":" + line + ": " + call);
          }
          return super.visitMethodInvocation(call, unused);
        }
      }.scan(unit, null);
    }
    return found;
  }

  private static boolean unsafe(ExecutableElement m) {
    String owner = ((TypeElement) m.getEnclosingElement()).getQualifiedName().toString();
    String name = m.getSimpleName().toString();
    if (!owner.startsWith("ai.djl.")) {
      return false;
    }
    return UNSAFE_ANY_ARGUMENTS.contains(name) || UNSAFE.contains(name)
        && m.getParameters().stream().anyMatch(p -> p.asType().toString().equals("java.lang.Number"));
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
