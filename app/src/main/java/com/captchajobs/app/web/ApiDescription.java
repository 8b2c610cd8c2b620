package com.captchajobs.app.web;

import com.captchajobs.core.client.CaptchaType;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Contact;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.NumberSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * The OpenAPI 3 description of the REST API, served at {@code /v3/api-docs} and committed as {@code
 * docs/openapi.json}. springdoc finds the paths and methods in the controllers; this class adds
 * what it cannot see: the hand-read request body with one example per captcha type, and every
 * answer, the problem+json ones included, per operation.
 */
final class ApiDescription {

  static final String PROBLEM = "Problem";
  private static final String PROBLEM_JSON = "application/problem+json";
  private static final String JSON = "application/json";

  private ApiDescription() {}

  /** The document's frame: title, bearer authentication, a server relative to where it is read. */
  static OpenAPI base() {
    return new OpenAPI()
        .info(
            new Info()
                .title("CaptchaJobs REST API")
                .version("1")
                .contact(new Contact().name("CaptchaJobs"))
                .description(
                    "CaptchaAI solves as background jobs: enqueue, follow, claim the token once."
                        + " Every error is application/problem+json."))
        .servers(List.of(new Server().url("/").description("the app node's server.port")))
        .components(
            new Components()
                .addSecuritySchemes(
                    "bearer",
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("one of captchajobs.api.tokens")))
        .addSecurityItem(new SecurityRequirement().addList("bearer"))
        .tags(
            List.of(
                new Tag().name(SOLVES_TAG).description("A client's solves: enqueue, follow, claim"),
                new Tag()
                    .name(OPERATOR_TAG)
                    .description("Operator views; need a client with the operator role")));
  }

  static final String SOLVES_TAG = "solves";
  static final String OPERATOR_TAG = "operator";

  /** Adds the request bodies, the answers and the shared schemas to what springdoc found. */
  static OpenApiCustomizer customizer() {
    return ApiDescription::describe;
  }

  static void describe(OpenAPI api) {
    Components components = api.getComponents();
    if (components.getSchemas() != null) {
      components.getSchemas().remove("SseEmitter"); // the stream is described as text/event-stream
    }
    components.addSchemas(PROBLEM, problemSchema());
    components.addSchemas("SolveRequest", requestSchema());
    components.addSchemas("Accepted", acceptedSchema());
    components.addSchemas("ReportRequest", reportRequestSchema());
    // Fields sent as null until they apply: nullable, so that generated clients accept them.
    nullable(components, "SolveStatusView", "submittedAt", "solvedAt", "expiresAt", "claimedAt");
    nullable(components, "SolveStatusView", "errorCode", "errorClass", "report", "provider");
    nullable(components, "Report", "deliveredAt", "error");
    nullable(components, "ClaimedToken", "userAgent");
    nullable(components, "BatchSummary", "latencyP50Seconds", "latencyP95Seconds");
    nullable(components, "BreakerRow", "errorCode", "reason", "openedAt", "closedAt");
    if (api.getPaths() == null) {
      return;
    }
    api.getPaths()
        .forEach(
            (path, item) -> {
              switch (path) {
                case "/api/solves" -> enqueue(item.getPost());
                case "/api/solves/{id}" -> status(item.getGet());
                case "/api/solves/{id}/claim" -> claim(item.getPost());
                case "/api/solves/{id}/report" -> report(item.getPost());
                case "/api/solves/{id}/events" -> events(item.getGet());
                case "/api/admin/solves" ->
                    admin(item.getGet(), "listSolves", "Solves, filtered and paged", "400");
                case "/api/admin/batches/{batch}" ->
                    admin(item.getGet(), "batchSummary", "A client's batch summary", "400", "404");
                case "/api/admin/gate" ->
                    admin(item.getGet(), "gate", "The fleet gate and its holders");
                case "/api/admin/breakers" ->
                    admin(item.getGet(), "breakers", "Every key's breaker");
                case "/api/admin/breakers/{keyFingerprint}" ->
                    admin(item.getDelete(), "closeBreaker", "Close a key's breaker", "404");
                case "/api/admin/solves/{id}/requeue" ->
                    admin(
                        item.getPost(),
                        "requeueSolve",
                        "Requeue a failed solve with a fresh deadline",
                        "404",
                        "409");
                default -> {}
              }
            });
  }

  /**
   * An operator view: its 2xx as springdoc found it (as application/json), 401, 403 for a token
   * that is not an operator's, and the given problems.
   */
  private static void admin(Operation op, String operationId, String summary, String... problems) {
    if (op == null) {
      return;
    }
    op.operationId(operationId)
        .summary(summary)
        .tags(List.of(OPERATOR_TAG))
        .description(
            "Operator view: needs a client with the operator role (captchajobs.api.clients.<name>.roles=operator).");
    ApiResponses responses = new ApiResponses();
    String ok = "requeueSolve".equals(operationId) ? "202" : "200";
    ApiResponse found = found(op, ok.equals("202") ? "The solve, queued afresh" : "The view");
    responses.addApiResponse(ok, found);
    responses.addApiResponse("401", unauthorized());
    responses.addApiResponse(
        "403",
        problem(
            "An API token that is not an operator's",
            403,
            "Forbidden",
            "Authorization",
            "the operator views need the operator role",
            Map.of()));
    for (String code : problems) {
      responses.addApiResponse(
          code,
          switch (code) {
            case "400" ->
                "batchSummary".equals(operationId)
                    ? problem(
                        "The label is used by more than one client and no client was named",
                        400,
                        "Invalid request",
                        "client",
                        "batch night-1 is used by 2 clients (a, b): name one with ?client=",
                        Map.of())
                    : problem(
                        "A bad filter or page, naming it",
                        400,
                        "Invalid request",
                        "status",
                        "status must be one of QUEUED, ...",
                        Map.of());
            case "404" ->
                problem(
                    "Nothing with this name or id", 404, "Not found", null, "not found", Map.of());
            default ->
                problems(
                    "The solve is not FAILED, or its proxy or cookies were scrubbed when it failed"
                        + " so that it can no longer be sent as it was enqueued",
                    Map.of(
                        "notFailed",
                        problemExample(
                            409,
                            "Not failed",
                            null,
                            "only a FAILED solve can be requeued; this one is SOLVED",
                            Map.of()),
                        "cannotBeRebuilt",
                        problemExample(
                            409,
                            "Cannot be rebuilt",
                            null,
                            "solve 0b6e1c52-3f4f-4a8e-9d8a-7d2f8d1f0c11 cannot be requeued: its"
                                + " request carried a proxy or cookies, which were removed ...",
                            Map.of())));
          });
    }
    op.responses(responses);
  }

  private static void enqueue(Operation op) {
    if (op == null) {
      return;
    }
    op.operationId("enqueueSolve")
        .tags(List.of(SOLVES_TAG))
        .summary("Enqueue a solve")
        .description(
            "The type's fields are flat beside businessKey, type, priority and callbackUrl."
                + " A request returns at once; a worker node does the solving.");
    MediaType body = new MediaType().schema(ref("SolveRequest"));
    examples().forEach((type, example) -> body.addExamples(type.name(), example));
    op.requestBody(
        new RequestBody().required(true).content(new Content().addMediaType(JSON, body)));
    Header location =
        new Header()
            .description("the solve, relative to the server: /api/solves/{id}")
            .schema(new StringSchema().format("uri-reference"));
    op.responses(
        new ApiResponses()
            .addApiResponse(
                "202",
                json("A new solve", ref("Accepted"), acceptedExample("QUEUED"))
                    .addHeaderObject("Location", location))
            .addApiResponse(
                "200",
                json(
                        "The existing solve with the same business key and payload",
                        ref("Accepted"),
                        acceptedExample("SUBMITTED"))
                    .addHeaderObject("Location", location))
            .addApiResponse(
                "400",
                problem(
                    "Bad input, naming the field: missing, empty, wrong JSON type, unknown field or"
                        + " type, a URL that is not absolute http(s), or bad JSON",
                    400,
                    "Invalid request",
                    "sitekey",
                    "sitekey is required",
                    Map.of()))
            .addApiResponse("401", unauthorized())
            .addApiResponse("403", notAClient())
            .addApiResponse(
                "409",
                problem(
                    "The business key is in use with another payload",
                    409,
                    "Business key in use",
                    "businessKey",
                    "business key order-42 is in use with another payload",
                    Map.of("existingId", "0b6e1c52-3f4f-4a8e-9d8a-7d2f8d1f0c11")))
            .addApiResponse(
                "413",
                problem(
                    "The body is over captchajobs.api.max-body-size",
                    413,
                    "Request body too large",
                    "body",
                    "body must be at most 262144 bytes (captchajobs.api.max-body-size)",
                    Map.of()))
            .addApiResponse(
                "415",
                problem(
                    "A content type other than JSON",
                    415,
                    "Unsupported media type",
                    "Content-Type",
                    "Content-Type must be application/json",
                    Map.of()))
            .addApiResponse(
                "429",
                tooMany(
                    "Over the client's enqueue rate (rate, burst) or its cap of unfinished solves"
                        + " (max-unfinished); nothing stored",
                    "this client has 1000 unfinished solves, its max-unfinished; wait for some to"
                        + " finish")));
  }

  private static void status(Operation op) {
    if (op == null) {
      return;
    }
    op.operationId("getSolve")
        .tags(List.of(SOLVES_TAG))
        .summary("A solve's status, never its token")
        .description(
            "The solve as stored now; instants and the error are null until they apply. Another"
                + " client's solve is answered 404, as an unknown one.");
    op.responses(
        new ApiResponses()
            .addApiResponse("200", found(op, "The solve"))
            .addApiResponse("401", unauthorized())
            .addApiResponse("403", notAClient())
            .addApiResponse("404", notFound())
            .addApiResponse("429", readTooMany()));
  }

  private static void claim(Operation op) {
    if (op == null) {
      return;
    }
    op.operationId("claimToken")
        .tags(List.of(SOLVES_TAG))
        .summary("Claim the token, once")
        .description("Answered with Cache-Control: no-store.");
    op.responses(
        new ApiResponses()
            .addApiResponse("200", found(op, "The token, this once"))
            .addApiResponse("401", unauthorized())
            .addApiResponse("403", notAClient())
            .addApiResponse("404", notFound())
            .addApiResponse("429", readTooMany())
            .addApiResponse(
                "409",
                problems(
                    "Not solved yet (solveStatus), already claimed, or failed (errorCode,"
                        + " errorClass)",
                    Map.of(
                        "notSolvedYet",
                        problemExample(
                            409,
                            "Not solved yet",
                            null,
                            "solve is SUBMITTED",
                            Map.of("solveStatus", "SUBMITTED")),
                        "alreadyClaimed",
                        problemExample(
                            409, "Already claimed", null, "token already claimed", Map.of()),
                        "failed",
                        problemExample(
                            409,
                            "Solve failed",
                            null,
                            "solve failed with ERROR_CAPTCHA_UNSOLVABLE",
                            Map.of(
                                "errorCode",
                                "ERROR_CAPTCHA_UNSOLVABLE",
                                "errorClass",
                                "unsolvable")))))
            .addApiResponse(
                "410",
                problem(
                    "The token expired before it was claimed",
                    410,
                    "Token expired",
                    null,
                    "token expired",
                    Map.of())));
  }

  private static void report(Operation op) {
    if (op == null) {
      return;
    }
    op.operationId("reportAnswer")
        .tags(List.of(SOLVES_TAG))
        .summary("Report a claimed answer as BAD or GOOD, once")
        .description(
            "Accepted once per solve, after its token was claimed and within"
                + " captchajobs.report-window (10 minutes by default) of the claim. The report is"
                + " recorded at once (202, the solve with report.delivery PENDING) and a worker"
                + " node sends it to CaptchaAI as reportbad or reportgood, at most once.");
    op.requestBody(
        new RequestBody()
            .required(true)
            .content(
                new Content()
                    .addMediaType(
                        JSON,
                        new MediaType()
                            .schema(ref("ReportRequest"))
                            .example(Map.of("verdict", "BAD")))));
    ApiResponse accepted = found(op, "Recorded; the solve with its report");
    op.responses(
        new ApiResponses()
            .addApiResponse("202", accepted)
            .addApiResponse(
                "400",
                problem(
                    "Bad input, naming the field: verdict missing or not BAD or GOOD, another"
                        + " field, or bad JSON; nothing stored",
                    400,
                    "Invalid request",
                    "verdict",
                    "verdict must be BAD or GOOD",
                    Map.of()))
            .addApiResponse("401", unauthorized())
            .addApiResponse("403", notAClient())
            .addApiResponse("404", notFound())
            .addApiResponse(
                "409",
                problems(
                    "Not reportable (reason): the token was not claimed, the solve was reported"
                        + " before, or the claim is older than the report window",
                    Map.of(
                        "notClaimed",
                        problemExample(
                            409,
                            "Not reportable",
                            null,
                            "solve cannot be reported: its token was not claimed",
                            Map.of("reason", "NOT_CLAIMED")),
                        "alreadyReported",
                        problemExample(
                            409,
                            "Not reportable",
                            null,
                            "solve was already reported",
                            Map.of("reason", "ALREADY_REPORTED")),
                        "windowPassed",
                        problemExample(
                            409,
                            "Not reportable",
                            null,
                            "solve cannot be reported any more: its claim is older than the"
                                + " report window",
                            Map.of("reason", "WINDOW_PASSED")))))
            .addApiResponse(
                "413",
                problem(
                    "The body is over captchajobs.api.max-body-size",
                    413,
                    "Request body too large",
                    "body",
                    "body must be at most 262144 bytes (captchajobs.api.max-body-size)",
                    Map.of()))
            .addApiResponse(
                "415",
                problem(
                    "A content type other than JSON",
                    415,
                    "Unsupported media type",
                    "Content-Type",
                    "Content-Type must be application/json",
                    Map.of()))
            .addApiResponse("429", readTooMany()));
  }

  private static void events(Operation op) {
    if (op == null) {
      return;
    }
    op.operationId("streamSolveEvents")
        .tags(List.of(SOLVES_TAG))
        .summary("Server-sent events of a solve's status")
        .description(
            "An event 'status' (id = the status, data = the solve as GET /api/solves/{id}) at once"
                + " and on every change. The stream ends after a final status or after"
                + " captchajobs.api.events-timeout.");
    op.responses(
        new ApiResponses()
            .addApiResponse(
                "200",
                new ApiResponse()
                    .description("The event stream")
                    .content(
                        new Content()
                            .addMediaType(
                                "text/event-stream",
                                new MediaType()
                                    .schema(new StringSchema())
                                    .example(
                                        "event:status\nid:SUBMITTED\ndata:{\"id\":\"…\","
                                            + "\"status\":\"SUBMITTED\",…}\n\n"))))
            .addApiResponse("401", unauthorized())
            .addApiResponse("403", notAClient())
            .addApiResponse("404", notFound())
            .addApiResponse(
                "429",
                tooMany(
                    "Over the client's read rate (read-rate, read-burst), or the client"
                        + " (max-streams) or the node holds as many streams as it may",
                    "too many open event streams (this client's max-streams is 20)")));
  }

  /** The 200 springdoc derived from the return type, as application/json. */
  private static ApiResponse found(Operation op, String description) {
    ApiResponse ok =
        op.getResponses() == null
            ? null
            : op.getResponses().values().stream()
                .filter(r -> r.getContent() != null)
                .findFirst()
                .orElse(null);
    Schema<?> schema = null;
    if (ok != null && ok.getContent() != null) {
      schema =
          ok.getContent().values().stream()
              .map(MediaType::getSchema)
              .filter(java.util.Objects::nonNull)
              .findFirst()
              .orElse(null);
    }
    return new ApiResponse()
        .description(description)
        .content(new Content().addMediaType(JSON, new MediaType().schema(schema)));
  }

  // ---- request examples, one per captcha type ----

  static Map<CaptchaType, Example> examples() {
    Map<CaptchaType, Example> out = new LinkedHashMap<>();
    for (CaptchaType type : CaptchaType.values()) {
      out.put(type, new Example().summary(type.name()).value(example(type)));
    }
    return out;
  }

  private static Map<String, Object> example(CaptchaType type) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("businessKey", "order-42");
    m.put("type", type.name());
    switch (type) {
      case RECAPTCHA_V2 -> {
        m.put("sitekey", "6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-");
        m.put("pageUrl", "https://example.com/login");
        m.put("invisible", false);
      }
      case RECAPTCHA_V3 -> {
        m.put("sitekey", "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf");
        m.put("pageUrl", "https://example.com/checkout");
        m.put("action", "checkout");
        m.put("minScore", 0.7);
      }
      case RECAPTCHA_ENTERPRISE -> {
        m.put("sitekey", "6Lf26sUnAAAAAIKLuWNYgRsFUfmI-3Lex3xT5N-s");
        m.put("pageUrl", "https://example.com/signup");
        m.put("action", "signup");
      }
      case TURNSTILE -> {
        m.put("sitekey", "0x4AAAAAAADnPIDROrmt1Wwj");
        m.put("pageUrl", "https://example.com/login");
      }
      case IMAGE ->
          m.put(
              "body",
              "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");
      case CLOUDFLARE_CHALLENGE -> {
        m.put("pageUrl", "https://example.com/");
        m.put("proxy", "user:password@203.0.113.7:3128");
        m.put("proxytype", "HTTP");
      }
      case GEETEST -> {
        m.put("gt", "022397c99c9f646f6477822485f30404");
        m.put("challenge", "12345678abc90123d45678ef90123a456b");
        m.put("pageUrl", "https://example.com/geetest");
      }
      case GEETEST_V4 -> {
        m.put("captchaId", "e392e1d7fd421dc63325744d5a2b9c73");
        m.put("pageUrl", "https://example.com/geetest4");
      }
    }
    if (type == CaptchaType.TURNSTILE) {
      m.put("priority", 5);
      m.put("callbackUrl", "https://example.com/hooks/captcha");
    }
    return m;
  }

  // ---- schemas ----

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static Schema<?> requestSchema() {
    Schema scalar =
        new Schema<>()
            .description("a field of the type, a string, number or boolean")
            .oneOf(List.of(new StringSchema(), new NumberSchema(), new BooleanSchema()));
    ObjectSchema s = new ObjectSchema();
    s.description(
        "businessKey, type, priority and callbackUrl, and the type's own fields flat beside them"
            + " (sitekey, pageUrl, action, minScore, invisible, body, proxy, ...)");
    s.addRequiredItem("businessKey");
    s.addRequiredItem("type");
    s.addProperty(
        "businessKey",
        new StringSchema().maxLength(255).description("the caller's idempotency key"));
    StringSchema type = new StringSchema();
    Arrays.stream(CaptchaType.values()).forEach(t -> type.addEnumItem(t.name()));
    s.addProperty("type", type);
    s.addProperty("priority", new IntegerSchema().description("higher runs first"));
    s.addProperty(
        "callbackUrl",
        new StringSchema().format("uri").description("webhook for SOLVED and FAILED"));
    s.additionalProperties(scalar);
    return s;
  }

  private static Schema<?> reportRequestSchema() {
    ObjectSchema s = new ObjectSchema();
    StringSchema verdict = new StringSchema();
    verdict.addEnumItem("BAD");
    verdict.addEnumItem("GOOD");
    verdict.description("BAD: the target site rejected the token; GOOD: it accepted it");
    s.addProperty("verdict", verdict);
    s.addRequiredItem("verdict");
    s.additionalProperties(false);
    return s;
  }

  private static Schema<?> acceptedSchema() {
    ObjectSchema s = new ObjectSchema();
    s.addProperty("id", new StringSchema().format("uuid"));
    s.addProperty("status", new StringSchema());
    s.addRequiredItem("id");
    s.addRequiredItem("status");
    return s;
  }

  private static Schema<?> problemSchema() {
    ObjectSchema s = new ObjectSchema();
    s.description("RFC 9457 problem details; field names the input at fault when there is one");
    s.addProperty("type", new StringSchema().example("about:blank"));
    s.addProperty("title", new StringSchema());
    s.addProperty("status", new IntegerSchema());
    s.addProperty("detail", new StringSchema());
    s.addProperty("instance", new StringSchema().format("uri-reference"));
    s.addProperty("field", new StringSchema());
    s.addProperty("existingId", new StringSchema().format("uuid").description("409 on enqueue"));
    s.addProperty("solveStatus", new StringSchema().description("409 on claim, not solved yet"));
    s.addProperty("errorCode", new StringSchema().description("409 on claim of a failed solve"));
    s.addProperty("errorClass", new StringSchema().description("409 on claim of a failed solve"));
    s.addProperty(
        "reason",
        new StringSchema()
            .description("409 on report: NOT_CLAIMED, ALREADY_REPORTED or WINDOW_PASSED"));
    s.addRequiredItem("title");
    s.addRequiredItem("status");
    return s;
  }

  // ---- answers ----

  private static ApiResponse unauthorized() {
    return problem(
            "No token, or a token that is not one of captchajobs.api.tokens",
            401,
            "Unauthorized",
            "Authorization",
            "Authorization header missing: send Authorization: Bearer <token>",
            Map.of())
        .addHeaderObject(
            "WWW-Authenticate",
            new Header().schema(new StringSchema().example("Bearer realm=\"captchajobs\"")));
  }

  private static ApiResponse notAClient() {
    return problem(
        "A token whose client lacks the client role (an operator-only token)",
        403,
        "Forbidden",
        "Authorization",
        "this call needs the client role",
        Map.of());
  }

  private static ApiResponse readTooMany() {
    return tooMany(
        "Over the client's read rate (read-rate, read-burst): status reads, claims and event"
            + " streams opened",
        "this client reads faster than its read rate (50.0 per second, burst 100)");
  }

  /** 429 problem+json with the Retry-After header (whole seconds). */
  private static ApiResponse tooMany(String description, String detail) {
    return problem(description, 429, "Too many requests", null, detail, Map.of())
        .addHeaderObject(
            "Retry-After",
            new Header()
                .description("seconds to wait before trying again")
                .required(true)
                .schema(new IntegerSchema().minimum(java.math.BigDecimal.ONE)));
  }

  /**
   * Marks properties of a schema springdoc derived as nullable (OpenAPI 3.1: {@code null} among the
   * types; an enum gets {@code null} among its values too).
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private static void nullable(Components components, String schema, String... properties) {
    Schema<?> s = components.getSchemas() == null ? null : components.getSchemas().get(schema);
    if (s == null || s.getProperties() == null) {
      return;
    }
    for (String name : properties) {
      Schema property = s.getProperties().get(name);
      if (property == null) {
        continue;
      }
      if (property.get$ref() != null) {
        // a nullable object: the referenced schema or null (OpenAPI 3.1)
        Schema<Object> none = new JsonSchema();
        none.addType("null");
        Schema<Object> ref = new JsonSchema();
        ref.set$ref(property.get$ref());
        Schema<Object> either = new JsonSchema();
        either.anyOf(List.of(ref, none));
        s.getProperties().put(name, either);
        continue;
      }
      if (property.getEnum() != null && !property.getEnum().contains(null)) {
        property.getEnum().add(null);
      }
      if (property.getTypes() != null) {
        property.addType("null");
      } else if (property.getType() != null) {
        property.addType(property.getType());
        property.addType("null");
      }
    }
  }

  private static ApiResponse notFound() {
    return problem(
        "No solve with this id", 404, "Not found", null, "no solve with id 42", Map.of());
  }

  private static ApiResponse json(String description, Schema<?> schema, Object example) {
    return new ApiResponse()
        .description(description)
        .content(new Content().addMediaType(JSON, new MediaType().schema(schema).example(example)));
  }

  private static Map<String, Object> acceptedExample(String status) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", "0b6e1c52-3f4f-4a8e-9d8a-7d2f8d1f0c11");
    m.put("status", status);
    return m;
  }

  static ApiResponse problem(
      String description,
      int status,
      String title,
      String field,
      String detail,
      Map<String, Object> extra) {
    return new ApiResponse()
        .description(description)
        .content(
            new Content()
                .addMediaType(
                    PROBLEM_JSON,
                    new MediaType()
                        .schema(ref(PROBLEM))
                        .example(problemExample(status, title, field, detail, extra))));
  }

  private static ApiResponse problems(String description, Map<String, Map<String, Object>> named) {
    MediaType media = new MediaType().schema(ref(PROBLEM));
    new java.util.TreeMap<>(named)
        .forEach((name, value) -> media.addExamples(name, new Example().value(value)));
    return new ApiResponse()
        .description(description)
        .content(new Content().addMediaType(PROBLEM_JSON, media));
  }

  static Map<String, Object> problemExample(
      int status, String title, String field, String detail, Map<String, Object> extra) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", "about:blank");
    m.put("title", title);
    m.put("status", status);
    m.put("detail", detail);
    m.put("instance", "/api/solves");
    if (field != null) {
      m.put("field", field);
    }
    new java.util.TreeMap<>(extra).forEach(m::put);
    return m;
  }

  static Schema<?> ref(String name) {
    return new Schema<>().$ref("#/components/schemas/" + name);
  }
}
