//! Camera paths (CSV, TUM, keyframes, generators) and `sfsim camera` flags.

use super::Case;

pub fn cases() -> Vec<Case> {
    vec![
        Case::new(
            "camera: empty csv",
            &["camera", "show", "c.csv"],
            &["c.csv:1:1: expected the header \"frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg\";"],
        )
        .file("c.csv", r#""#),
        Case::new(
            "camera: csv bad header",
            &["camera", "show", "c.csv"],
            &["c.csv:1:1: expected the header \"frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg\";"],
        )
        .file(
            "c.csv",
            r#"a,b,c
1,2,3
"#,
        ),
        Case::new(
            "camera: csv non-number",
            &["camera", "show", "c.csv"],
            &["c.csv:2:5: px: expected a finite number, found \"x\""],
        )
        .file(
            "c.csv",
            r#"frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg
0,0,x,0,0,0,0,0,1,60
"#,
        ),
        Case::new(
            "camera: csv zero quaternion",
            &["camera", "show", "c.csv"],
            &["c.csv:2:11: quaternion (0, 0, 0, 0) has zero length; expected a rotation (qx,"],
        )
        .file(
            "c.csv",
            r#"frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg
0,0,0,0,0,0,0,0,0,60
"#,
        ),
        Case::new(
            "camera: csv time backwards",
            &["camera", "show", "c.csv"],
            &["c.csv:3:3: time_s 0 is not after the previous row's 1; times must strictly"],
        )
        .file(
            "c.csv",
            r#"frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg
0,1,0,0,0,0,0,0,1,60
1,0,0,0,0,0,0,0,1,60
"#,
        ),
        Case::new(
            "camera: csv fov 500",
            &["camera", "show", "c.csv"],
            &["c.csv:2:19: fov_y_deg: field of view 500 degrees is out of range; expected 0 <"],
        )
        .file(
            "c.csv",
            r#"frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg
0,0,0,0,0,0,0,0,1,500
"#,
        ),
        Case::new(
            "camera: tum bad row",
            &["camera", "show", "c.tum"],
            &["c.tum:1: expected 8 whitespace-separated fields (timestamp tx ty tz qx qy qz"],
        )
        .file(
            "c.tum",
            r#"1.0 2.0 3.0
"#,
        ),
        Case::new(
            "camera: keys no keys",
            &["camera", "show", "c.keys.ron"],
            &["c.keys.ron: neither a keyframe file nor a generator (pass --kind to choose)"],
        )
        .file("c.keys.ron", r#"CameraKeyframes(fov_y_deg: 60.0, interpolation: Linear, keys: [])"#),
        Case::new(
            "camera: gen bad radius",
            &["camera", "show", "c.gen.ron"],
            &["c.gen.ron: neither a keyframe file nor a generator (pass --kind to choose)"],
        )
        .file("c.gen.ron", r#"Orbit(center: (0.0, 0.0, 0.0), radius: -3.0, height: 8.0, period_s: 20.0)"#),
        Case::new(
            "camera: record without frames",
            &["camera", "record", "c.gen.ron", "-o", "o.csv"],
            &["c.gen.ron: a Generator path never ends; give the number of frames with --frames"],
        )
        .file("c.gen.ron", r#"Orbit(center: (0.0, 0.0, 0.0), radius: 3.0, height: 8.0, period_s: 20.0)"#),
        Case::new(
            "camera: record a billion frames",
            &["camera", "record", "c.gen.ron", "-o", "o.csv", "--frames", "1000000000"],
            &["--frames 1000000000 is out of range; expected 1..=3600000 (an hour at 1000 fps)"],
        )
        .file("c.gen.ron", r#"Orbit(center: (0.0, 0.0, 0.0), radius: 3.0, height: 8.0, period_s: 20.0)"#),
        Case::new(
            "camera: fps zero",
            &["camera", "show", "c.gen.ron", "--fps", "0"],
            &["--fps 0 is out of range; expected a frame rate in (0, 1000] frames per second"],
        )
        .file("c.gen.ron", r#"Orbit(center: (0.0, 0.0, 0.0), radius: 3.0, height: 8.0, period_s: 20.0)"#),
        Case::new(
            "camera: fps NaN",
            &["camera", "show", "c.gen.ron", "--fps", "NaN"],
            &["--fps NaN is out of range; expected a frame rate in (0, 1000] frames per second"],
        )
        .file("c.gen.ron", r#"Orbit(center: (0.0, 0.0, 0.0), radius: 3.0, height: 8.0, period_s: 20.0)"#),
        Case::new(
            "camera: tum fov 180",
            &["camera", "show", "c.tum", "--tum-fov", "180"],
            &["--tum-fov 180 is out of range; expected (0, 180) degrees"],
        )
        .file(
            "c.tum",
            r#"0 0 0 0 0 0 0 1
"#,
        ),
        Case::new(
            "camera: show too many frames",
            &["camera", "show", "c.gen.ron", "--frames", "99999999"],
            &["--frames 99999999 is out of range; expected 1..=1000000"],
        )
        .file("c.gen.ron", r#"Orbit(center: (0.0, 0.0, 0.0), radius: 3.0, height: 8.0, period_s: 20.0)"#),
    ]
}
