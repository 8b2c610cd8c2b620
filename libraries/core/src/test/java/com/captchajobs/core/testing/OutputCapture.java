package com.captchajobs.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Captures {@code System.out} and {@code System.err} from before the class's {@code @BeforeAll}
 * until after its {@code @AfterAll}, still printing everything, and hands a test method a {@link
 * CapturedOutput} parameter. The console appender of Logback writes through {@code System.out} as
 * it is at each call, so log lines are captured too.
 *
 * <pre>{@code
 * @ExtendWith(OutputCapture.class)
 * class SomeTest {
 *   @Test
 *   void logsNoSecret(CapturedOutput output) { ... assertThat(output.getAll()).doesNotContain(KEY); }
 * }
 * }</pre>
 */
public final class OutputCapture implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(OutputCapture.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(NAMESPACE).put(Capture.class, new Capture());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Capture capture = context.getStore(NAMESPACE).remove(Capture.class, Capture.class);
    if (capture != null) {
      capture.release();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == CapturedOutput.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Capture capture = context.getStore(NAMESPACE).get(Capture.class, Capture.class);
    if (capture == null) {
      throw new IllegalStateException(
          "OutputCapture captures from @BeforeAll on: register it on the class");
    }
    return capture;
  }

  /** Both streams teed into one buffer, until released. */
  private static final class Capture implements CapturedOutput {

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

    Capture() {
      System.setOut(tee(out));
      System.setErr(tee(err));
    }

    private PrintStream tee(PrintStream original) {
      return new PrintStream(
          new OutputStream() {
            @Override
            public void write(int b) {
              original.write(b);
              synchronized (buffer) {
                buffer.write(b);
              }
            }

            @Override
            public void write(byte[] b, int off, int len) {
              original.write(b, off, len);
              synchronized (buffer) {
                buffer.write(b, off, len);
              }
            }

            @Override
            public void flush() throws IOException {
              original.flush();
            }
          },
          true,
          StandardCharsets.UTF_8);
    }

    void release() {
      System.setOut(out);
      System.setErr(err);
    }

    @Override
    public String getAll() {
      synchronized (buffer) {
        return buffer.toString(StandardCharsets.UTF_8);
      }
    }

    @Override
    public String toString() {
      return getAll();
    }
  }
}
